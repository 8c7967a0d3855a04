import { expect, type Locator, type Page } from "@playwright/test";
import { expectNoHorizontalOverflow, expectToast, LAPTOP, snapshot, test, zh } from "./helpers.js";
import { API, libraryWithThreePhotos, seedingHeaders } from "./seed.js";

test.use({ viewport: LAPTOP });

/** The only open dialog (antd keeps closed ones in the DOM, hidden). */
const dialog = (page: Page) => page.locator(".ant-modal-wrap:visible .ant-modal-content").last();

/** Drags with the mouse in small steps, as a person does (dnd-kit starts a drag after 4 px of movement). */
async function drag(page: Page, from: Locator, to: Locator): Promise<void> {
  const start = (await from.boundingBox())!;
  const end = (await to.boundingBox())!;
  await page.mouse.move(start.x + start.width / 2, start.y + start.height / 2);
  await page.mouse.down();
  await page.mouse.move(start.x + start.width / 2, start.y + start.height / 2 - 8, { steps: 4 });
  await page.mouse.move(end.x + end.width / 2, end.y + end.height / 2 - 4, { steps: 20 });
  await page.mouse.up();
}

/**
 * Issue 15: a composite manuscript. Three photos selected in a library's
 * grid become a composite (新建组图); in the 组图 dialog the last is dragged
 * to the top, the middle one chosen as cover, and the text written — a
 * heading, a paragraph with a bold word and a link, the three photos placed
 * between paragraphs — and saved; opened again from the viewer it is
 * committed (提交). The viewer shows it as a manuscript: the text with the
 * three photos inline, in the text's order.
 */
test("a composite manuscript: made from a selection, ordered, covered, written, committed, viewed", async ({
  page,
  signedIn: errors,
}, testInfo) => {
  test.setTimeout(300_000);
  const { token, headers } = await seedingHeaders(page, "composite");
  const run = Date.now().toString(36);
  const libraryId = `e2e-composite-${run}`;
  const photos = await libraryWithThreePhotos(page.request, token, { id: libraryId, name: `组图 ${run}` }, run);
  const [harbour, typhoon, briefing] = photos;
  const card = (storyId: string) => page.locator(`[data-testid="story-card"][data-story="${libraryId}/${storyId}"]`);

  // The three selected in the grid, in order, and 新建组图.
  await page.goto(`/frontend/${libraryId}`, { waitUntil: "networkidle" });
  for (const photo of photos) await card(photo.storyId).getByRole("checkbox").check();
  await page.getByTestId("selection-composite").click();
  const editor = dialog(page);
  await expect(editor.getByTestId("composite-member")).toHaveCount(3);
  await expect(editor.getByTestId("composite-member").first()).toHaveAttribute("data-story-id", harbour.storyId);
  await editor.getByTestId("composite-title").fill(`台风过境 ${run}`);

  // The last member dragged to the top.
  const rows = editor.getByTestId("composite-member");
  await drag(
    page,
    rows.nth(2).getByTestId("composite-member-handle"),
    rows.nth(0).getByTestId("composite-member-handle"),
  );
  await expect
    .poll(async () => rows.evaluateAll((nodes) => nodes.map((node) => node.getAttribute("data-story-id"))))
    .toEqual([briefing.storyId, harbour.storyId, typhoon.storyId]);

  // The typhoon photo as cover.
  await editor
    .locator(`[data-testid="composite-member"][data-story-id="${typhoon.storyId}"]`)
    .getByTestId("composite-member-cover")
    .click();

  // The text: a heading, a paragraph with a bold word and a link, the photos placed between paragraphs.
  const text = editor.locator(".dams-text-editor .ProseMirror");
  await text.click();
  await page.keyboard.type(`强台风登陆 ${run}`);
  await editor.getByTestId("text-block").click();
  await page
    .locator(".ant-select-dropdown:visible")
    .getByText(zh("composite.text.heading").replace("{{level}}", "2"))
    .click();
  await expect(text.locator("h2")).toHaveText(`强台风登陆 ${run}`);
  await text.locator("h2").click();
  await page.keyboard.press("End");
  await page.keyboard.press("Enter");
  await page.keyboard.type("清晨的港口，渔船已经回港。");
  await page.keyboard.press("Control+B");
  await page.keyboard.type("风力十二级");
  await page.keyboard.press("Control+B");
  await page.keyboard.type("。");
  const place = async (title: string) => {
    await editor.getByTestId("text-insert-member").click();
    await page.locator(".ant-dropdown:visible .ant-dropdown-menu-item").filter({ hasText: title }).click();
  };
  await page.keyboard.press("Enter");
  await place(`港口 ${run}`);
  await expect(text.getByTestId("text-member")).toHaveCount(1);
  await text.locator("p").last().click();
  await page.keyboard.type("午后风雨加大，气象台召开发布会。");
  await page.keyboard.press("Enter");
  await place(`发布会 ${run}`);
  await text.locator("p").last().click();
  await page.keyboard.type("傍晚，台风中心逼近。");
  await page.keyboard.press("Enter");
  await place(`台风 ${run}`);
  await expect(text.getByTestId("text-member")).toHaveCount(3);
  await snapshot(page, testInfo, "composite-editor-1366");

  // 保存: a draft composite with its members in the dragged order, its text and its cover.
  const created = page.waitForResponse(
    (response) =>
      response.request().method() === "POST" && response.url().endsWith(`${API}/workflow-story-create/composite`),
  );
  await editor.getByTestId("composite-save").click();
  const composite = ((await (await created).json()) as { data: { storyId: string } }).data;
  await expectToast(page, zh("composite.saved"));
  const stored = async () =>
    (
      (await (await page.request.get(`${API}/stories/${libraryId}/${composite.storyId}`, { headers })).json()) as {
        data: { status: string; members: string[]; coverUrl: string | null };
      }
    ).data;
  expect((await stored()).members).toEqual([briefing.storyId, harbour.storyId, typhoon.storyId]);
  await expect.poll(async () => (await stored()).coverUrl, { timeout: 120_000 }).not.toBeNull();
  expect((await stored()).status).toBe("draft");

  // Opened in the viewer, edited again and committed (提交).
  await page.goto(`/frontend/${libraryId}?story=${libraryId}/${composite.storyId}`, { waitUntil: "networkidle" });
  const viewer = page.locator(".ant-drawer-content");
  await viewer.getByTestId("composite-edit").click();
  await expect(dialog(page).getByTestId("composite-member")).toHaveCount(3);
  await expect(dialog(page).locator(".dams-text-editor").getByTestId("text-member")).toHaveCount(3);
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(dialog(page).getByTestId("composite-member").first()).toBeVisible();
  await snapshot(page, testInfo, "composite-editor-390");
  await page.setViewportSize({ width: 1366, height: 900 });
  await dialog(page).getByTestId("composite-commit").click();
  await expectToast(page, zh("composite.committed"));
  await expect.poll(async () => (await stored()).status, { timeout: 120_000 }).toBe("committed");

  // The manuscript: the heading, the text, and the three photos inline in the text's order.
  const manuscript = viewer.getByTestId("story-manuscript");
  await expect(manuscript.locator("h2")).toHaveText(`强台风登陆 ${run}`);
  await expect(manuscript.locator("strong")).toHaveText("风力十二级");
  await expect(manuscript.getByTestId("manuscript-member")).toHaveCount(3);
  expect(
    await manuscript
      .getByTestId("manuscript-member")
      .evaluateAll((nodes) => nodes.map((node) => node.getAttribute("data-story-id"))),
  ).toEqual([harbour.storyId, briefing.storyId, typhoon.storyId]);
  await expect(manuscript.getByTestId("manuscript-unplaced")).toHaveCount(0);
  for (const image of await manuscript.getByTestId("manuscript-member").locator("img").all()) {
    await expect.poll(() => image.evaluate((node) => (node as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
  }
  await expect(manuscript.getByTestId("story-manuscript-cover")).toBeVisible();
  await snapshot(page, testInfo, "composite-viewer-1366");

  // A member opens from the manuscript.
  await manuscript.getByTestId("manuscript-tile").nth(1).click();
  await expect(page).toHaveURL(new RegExp(`story=${libraryId}(/|%2F)${briefing.storyId}`));
  await page.goBack();
  await expect(viewer.getByTestId("story-manuscript")).toBeVisible();

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(manuscript.getByTestId("manuscript-member")).toHaveCount(3);
  await viewer.locator(".ant-drawer-body").evaluate((body) => body.scrollTo(0, 0));
  await snapshot(page, testInfo, "composite-viewer-390");
  await expectNoHorizontalOverflow(page);
  await page.keyboard.press("Escape");

  // Shared, the visitor reads the same manuscript: the text with the three photos inline, in order.
  const shared = await page.request.post(`${API}/shares`, {
    headers,
    data: { target: { kind: "story", libraryId, storyId: composite.storyId } },
  });
  expect(shared.status(), await shared.text()).toBe(200);
  const { url } = ((await shared.json()) as { data: { url: string } }).data;
  const visitor = await page
    .context()
    .browser()!
    .newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
  const reader = await visitor.newPage();
  await reader.goto(new URL(url, page.url()).href, { waitUntil: "networkidle" });
  const read = reader.getByTestId("visitor-manuscript");
  await expect(read.getByRole("heading", { name: `台风过境 ${run}` })).toBeVisible();
  await expect(read.locator("h2")).toHaveText(`强台风登陆 ${run}`);
  await expect(read.getByTestId("manuscript-member")).toHaveCount(3);
  expect(
    await read
      .getByTestId("manuscript-member")
      .evaluateAll((nodes) => nodes.map((node) => node.getAttribute("data-story-id"))),
  ).toEqual([harbour.storyId, briefing.storyId, typhoon.storyId]);
  await snapshot(reader, testInfo, "composite-share-390");
  await visitor.close();
  expect(errors.filter((error) => !error.includes("favicon"))).toEqual([]);
});
