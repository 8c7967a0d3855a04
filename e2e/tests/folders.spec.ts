import { expect, type Page, test } from "@playwright/test";
import { expectToast, snapshot, startSignedIn, zh } from "./helpers.js";
import { API, libraryWithThreePhotos, seedingHeaders } from "./seed.js";

/** A button's accessible name: antd puts a space between two Chinese characters (提 交). */
const spaced = (text: string): RegExp => new RegExp([...text].join("\\s*"));

/** The only open dialog (antd keeps closed ones in the DOM, hidden). */
const dialog = (page: Page) => page.locator(".ant-modal-wrap:visible .ant-modal-content");
const popconfirm = (page: Page) => page.locator(".ant-popover:visible");

/**
 * Issue 15: curating a library in the front area. A library of its own (the
 * journeys share one database), three photos; a folder is made beside the
 * grid, two selected photos are dragged onto it, the third goes in by 移动;
 * the folder is renamed (breadcrumb and URL follow); a sub-folder made and deleted; a story
 * is marked as a half product and found on /halfproduct/list, another made
 * there, and both finished there; a relation is added in the viewer and seen
 * from both ends.
 */
test("folders, half products and relations in the front area", async ({ page }, testInfo) => {
  test.setTimeout(300_000);
  const errors = await startSignedIn(page, { width: 1366, height: 900 });
  const { token, headers } = await seedingHeaders(page, "folders");
  const run = Date.now().toString(36);
  const libraryId = `e2e-folders-${run}`;
  const photos = await libraryWithThreePhotos(page.request, token, { id: libraryId, name: `整理 ${run}` }, run);
  const card = (storyId: string) => page.locator(`[data-testid="story-card"][data-story="${libraryId}/${storyId}"]`);

  // A new folder at the library's root: the URL and the breadcrumb open it.
  await page.goto(`/frontend/${libraryId}`, { waitUntil: "networkidle" });
  const tree = page.getByTestId("folder-tree");
  await expect(tree.getByText(zh("library.noFolders"))).toBeVisible();
  await tree.getByTestId("folder-create").click();
  const folderName = `要闻 ${run}`;
  await dialog(page).getByLabel(zh("library.folderName")).fill(folderName);
  await dialog(page)
    .getByRole("button", { name: spaced(zh("crud.ok")) })
    .click();
  await expect(page).toHaveURL(new RegExp(`/frontend/${libraryId}/[0-9a-f-]{36}$`));
  const folderId = page.url().split("/").pop() ?? "";
  await expect(page.getByTestId("library-breadcrumb")).toContainText(folderName);
  await expect(page.getByTestId("stories-empty")).toBeVisible();

  // Back at the root, two photos selected and one of them dragged onto the folder: both move.
  await tree.getByText(`整理 ${run}`).click();
  await expect(page).toHaveURL(new RegExp(`/frontend/${libraryId}$`));
  await expect(card(photos[0]!.storyId)).toBeVisible();
  await card(photos[0]!.storyId).getByRole("checkbox").check();
  await card(photos[1]!.storyId).getByRole("checkbox").check();
  const folderNode = tree.locator(`[data-testid="folder-node"][data-folder="${folderId}"]`);
  await card(photos[1]!.storyId).dragTo(folderNode);
  await expectToast(page, zh("library.storiesFiled").replace("{{count}}", "2").replace("{{folder}}", folderName));
  // The library's own page lists every story of the library, those in folders too; the folder holds the two.
  const inFolder = async () =>
    (
      (await (
        await page.request.get(`${API}/stories?libraryId=${libraryId}&folderId=${folderId}`, { headers })
      ).json()) as { data: { totalElements: number } }
    ).data.totalElements;
  await expect.poll(inFolder).toBe(2);
  await expect(page.getByTestId("selection-bar")).toBeHidden();

  // The third goes in by 移动 (the folder picker of the selection bar).
  await card(photos[2]!.storyId).getByRole("checkbox").check();
  await page
    .getByTestId("selection-bar")
    .getByRole("button", { name: spaced(zh("stories.move")) })
    .click();
  await dialog(page).locator(".ant-select").click();
  await page.locator(".ant-select-dropdown:visible").getByText(folderName).click();
  await dialog(page)
    .getByRole("button", { name: spaced(zh("crud.ok")) })
    .click();
  await expect.poll(inFolder).toBe(3);

  // The folder holds the three; renamed, the breadcrumb follows.
  await folderNode.click();
  await expect(page).toHaveURL(new RegExp(`/frontend/${libraryId}/${folderId}$`));
  await expect(page.getByTestId("stories-total")).toHaveText(zh("stories.total").replace("{{count}}", "3"));
  await tree.getByTestId("folder-rename").click();
  const renamed = `要闻 已编 ${run}`;
  await dialog(page).getByLabel(zh("library.folderName")).fill(renamed);
  await dialog(page)
    .getByRole("button", { name: spaced(zh("crud.ok")) })
    .click();
  await expect(page.getByTestId("library-breadcrumb")).toContainText(renamed);
  await expect(folderNode).toContainText(renamed);

  // A sub-folder; a folder holding others is not deleted, an empty one is.
  await tree.getByTestId("folder-create").click();
  await dialog(page).getByLabel(zh("library.folderName")).fill(`子 ${run}`);
  await dialog(page)
    .getByRole("button", { name: spaced(zh("crud.ok")) })
    .click();
  await expect(page.getByTestId("library-breadcrumb")).toContainText(`子 ${run}`);
  const childId = page.url().split("/").pop() ?? "";
  const folders = async () =>
    (
      (await (await page.request.get(`${API}/libraries/${libraryId}/folders`, { headers })).json()) as {
        data: { id: string; name: string; children: { id: string }[] }[];
      }
    ).data;
  expect((await folders()).find((node) => node.id === folderId)?.children.map((child) => child.id)).toEqual([childId]);
  await folderNode.click();
  await tree.getByTestId("folder-delete").click();
  await popconfirm(page)
    .getByRole("button", { name: spaced(zh("crud.ok")) })
    .click();
  await expectToast(page, zh("server.folder.hasChildren"));
  await tree.locator(`[data-testid="folder-node"][data-folder="${childId}"]`).click();
  await tree.getByTestId("folder-delete").click();
  await popconfirm(page)
    .getByRole("button", { name: spaced(zh("crud.ok")) })
    .click();
  // The parent opens once its sub-folder is gone.
  await expect(page).toHaveURL(new RegExp(`/frontend/${libraryId}/${folderId}$`));
  await expect(tree.locator(`[data-testid="folder-node"][data-folder="${childId}"]`)).toHaveCount(0);
  await folderNode.click();
  await snapshot(page, testInfo, "folders-1366");

  // A relation from the viewer (opened by the card's title), seen from both ends.
  await card(photos[0]!.storyId).getByTestId("story-card-title").click();
  const viewer = page.locator(".ant-drawer-content");
  await viewer.getByRole("tab", { name: zh("stories.viewer.relations") }).click();
  await viewer.getByTestId("relation-add").click();
  await dialog(page).getByTestId("relation-search").click();
  await page.keyboard.type(`台风 ${run}`);
  await page.locator(".ant-select-dropdown:visible").getByText(`台风 ${run}`).click();
  await dialog(page)
    .getByRole("button", { name: spaced(zh("crud.ok")) })
    .click();
  await expect(viewer.getByTestId("relation")).toContainText(`台风 ${run}`);
  await expect(viewer.getByTestId("relation")).toContainText(zh("stories.relation.outgoing"));
  await viewer.getByTestId("relation").getByText(`台风 ${run}`).click();
  await viewer.getByRole("tab", { name: zh("stories.viewer.relations") }).click();
  await expect(viewer.getByTestId("relation")).toContainText(`港口 ${run}`);
  await expect(viewer.getByTestId("relation")).toContainText(zh("stories.relation.incoming"));
  await snapshot(page, testInfo, "relations-1366");
  await page.keyboard.press("Escape");
  await expect(viewer).toBeHidden();

  // A story marked as a half product from the selection; a new one made on the list, then finished.
  await card(photos[2]!.storyId).getByRole("checkbox").check();
  await page.getByTestId("selection-half-product").click();
  await expectToast(page, zh("halfproduct.marked"));
  await page.goto("/halfproduct/list", { waitUntil: "networkidle" });
  await expect(page.getByText(`发布会 ${run}`)).toBeVisible();
  await snapshot(page, testInfo, "halfproducts-1366");

  // A half product made on the list (work in progress: a draft with a title), then finished there: it leaves the list.
  await page.getByTestId("halfproduct-create").click();
  await dialog(page).getByLabel(zh("stories.meta.title")).fill(`半成品 ${run}`);
  await dialog(page)
    .getByRole("button", { name: spaced(zh("crud.ok")) })
    .click();
  await expectToast(page, zh("halfproduct.created"));
  const halfProduct = page.locator("tr", { hasText: `半成品 ${run}` });
  await expect(halfProduct).toHaveCount(1);
  await halfProduct.getByTestId("halfproduct-finish").click();
  await popconfirm(page)
    .getByRole("button", { name: spaced(zh("crud.ok")) })
    .click();
  await expectToast(page, zh("halfproduct.finished"));
  await expect(halfProduct).toHaveCount(0);
  // The marked one is finished the same way.
  const marked = page.locator("tr", { hasText: `发布会 ${run}` });
  await marked.getByTestId("halfproduct-finish").click();
  await popconfirm(page)
    .getByRole("button", { name: spaced(zh("crud.ok")) })
    .click();
  await expect(marked).toHaveCount(0);

  // The refused delete (409, explained on the page) is the only failed request.
  expect(
    errors.filter((text) => !/Failed to load resource: the server responded with a status of 409/.test(text)),
  ).toEqual([]);
});
