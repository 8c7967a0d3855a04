import { expect, test } from "@playwright/test";
import { expectToast, LAPTOP, startSignedIn, zh } from "./helpers.js";
import { API, seedingHeaders } from "./seed.js";

/**
 * Issue 15, a bug: in the front area's folder tree a folder dragged onto the
 * library's own node made no request (antd gives a node that may not be
 * dragged — the library's — no drop handlers at all). Dropped there, a
 * sub-folder moves to the library's top level.
 */
test("a folder dragged onto the library's node moves to the top level", async ({ page }) => {
  test.setTimeout(180_000);
  const errors = await startSignedIn(page, LAPTOP);
  const { headers } = await seedingHeaders(page, "folder-drop");
  const run = Date.now().toString(36);
  const libraryId = `e2e-folder-drop-${run}`;
  const made = await page.request.post(`${API}/library-settings`, {
    headers,
    data: { id: libraryId, name: `拖放 ${run}` },
  });
  expect(made.status(), await made.text()).toBe(200);
  const folder = async (name: string, parentId: string | null) => {
    const response = await page.request.post(`${API}/libraries/${libraryId}/folders`, {
      headers,
      data: { name, parentId },
    });
    expect(response.status(), await response.text()).toBe(200);
    return ((await response.json()) as { data: { id: string } }).data.id;
  };
  const parent = await folder(`要闻 ${run}`, null);
  const child = await folder(`子 ${run}`, parent);
  const parentOf = async (id: string) => {
    const tree = (
      (await (await page.request.get(`${API}/libraries/${libraryId}/folders`, { headers })).json()) as {
        data: { id: string; children: { id: string }[] }[];
      }
    ).data;
    if (tree.some((node) => node.id === id)) return null;
    return tree.find((node) => node.children.some((below) => below.id === id))?.id;
  };
  expect(await parentOf(child)).toBe(parent);

  await page.goto(`/frontend/${libraryId}`, { waitUntil: "networkidle" });
  const tree = page.getByTestId("folder-tree");
  const childNode = tree.locator(`[data-testid="folder-node"][data-folder="${child}"]`);
  const libraryNode = tree.locator('[data-testid="folder-node"][data-folder=""]');
  await expect(childNode).toBeVisible();
  await childNode.dragTo(libraryNode);
  await expectToast(page, zh("folderAdmin.moved"));
  await expect.poll(() => parentOf(child)).toBeNull();
  expect(errors).toEqual([]);
});
