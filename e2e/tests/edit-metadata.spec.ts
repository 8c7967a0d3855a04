import path from "node:path";
import { expect } from "@playwright/test";
import { buttonName, LAPTOP, snapshot, test, zh } from "./helpers.js";
import { API, commitAndProcess, PHOTOS, seedingToken, upload } from "./seed.js";

test.use({ viewport: LAPTOP });

test("a committed photo's caption is edited in the viewer (编辑信息) and the search finds the new word", async ({
  page,
  signedIn: errors,
}, testInfo) => {
  test.setTimeout(240_000);
  const token = await seedingToken(page, "edit metadata");
  const run = String(Date.now()).slice(-6);
  const photo = await upload(page.request, token, path.join(PHOTOS, "Canon_40D.jpg"), {
    libraryId: "product",
    title: `编辑信息 ${run}`,
    caption: "原来的说明",
  });
  await commitAndProcess(page.request, token, [photo]);
  // A word no other story has: letters only, so the search tokenises it as one.
  const word = `harbourdusk${[...run].map((digit) => "abcdefghij"[Number(digit)]).join("")}`;

  await page.goto(`/frontend/search?story=product/${photo.storyId}`, { waitUntil: "networkidle" });
  const viewer = page.locator(".ant-drawer-content");
  await expect(viewer.getByTestId("story-metadata")).toContainText("原来的说明");
  await viewer.getByTestId("story-edit-info").click();
  // The modal's content box (its data-testid sits on antd's zero-size root).
  const dialog = page.locator(".ant-modal-content").filter({ has: page.getByTestId("edit-info-form") });
  await expect(dialog).toBeVisible();
  await expect(dialog.locator(".ant-modal-title")).toHaveText(zh("editInfo.title"));
  const caption = dialog.locator("textarea#caption");
  await expect(caption).toHaveValue("原来的说明");
  await caption.fill(`傍晚的码头 ${word}`);
  await snapshot(page, testInfo, "edit-info-1366");

  const saved = page.waitForResponse(
    (response) => response.url().includes(`${API}/workflow-story-edit/photo/`) && response.request().method() === "PUT",
  );
  const save = dialog.getByRole("button", { name: buttonName(zh("editInfo.save")) });
  await save.click();
  const answer = await saved;
  expect(answer.status()).toBe(200);
  expect(answer.request().headers()["if-match"]).toMatch(/^"\d+"$/);
  // The save ends: the dialog closes (its button does not stay loading), the viewer shows the new caption.
  await expect(dialog).toBeHidden({ timeout: 30_000 });
  await expect(viewer.getByTestId("story-metadata")).toContainText(word);

  // The history says who changed the caption from what to what, in the viewer's 操作记录 too.
  await viewer.getByRole("tab", { name: zh("stories.viewer.history") }).click();
  await expect(viewer.getByTestId("story-history-changes").first()).toContainText(`原来的说明 → 傍晚的码头 ${word}`);
  const actions = await page.request.get(`${API}/story-actions?libraryId=product&storyId=${photo.storyId}&size=50`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const edit = (
    (await actions.json()) as { data: { content: { action: string; details: { changes?: unknown } }[] } }
  ).data.content.find((action) => action.action === "edit");
  expect(edit?.details.changes).toEqual([{ field: "caption", from: "原来的说明", to: `傍晚的码头 ${word}` }]);

  // The search finds the story by the new word.
  await page.goto(`/frontend/search?fulltext=${word}`, { waitUntil: "networkidle" });
  await expect(page.locator(`[data-testid="story-card"][data-story="product/${photo.storyId}"]`)).toBeVisible();

  // The same dialog on a phone.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/frontend/search?story=product/${photo.storyId}`, { waitUntil: "networkidle" });
  await page.locator(".ant-drawer-content").getByTestId("story-edit-info").click();
  await expect(dialog).toBeVisible();
  await expect(dialog.locator("textarea#caption")).toHaveValue(`傍晚的码头 ${word}`);
  await snapshot(page, testInfo, "edit-info-390");
  await dialog.getByRole("button", { name: buttonName(zh("crud.cancel")) }).click();
  await expect(dialog).toBeHidden();

  expect(errors).toEqual([]);
});
