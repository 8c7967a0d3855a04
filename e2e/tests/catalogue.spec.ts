import { expect, test } from "@playwright/test";
import zhCN from "../../web/src/locales/zh-CN/index.js";
import { buttonName, confirmPopconfirm, DESKTOP, expectToast, snapshot, startSignedIn } from "./helpers.js";
import { accessToken } from "./seed.js";

const zh = (key: keyof typeof zhCN): string => zhCN[key];
const button = (key: keyof typeof zhCN): RegExp => buttonName(zh(key));
/** Spec section 9: 第a-b条 共n条. */
const range = (from: number, to: number, total: number) =>
  zh("crud.range").replace("{{from}}", String(from)).replace("{{to}}", String(to)).replace("{{total}}", String(total));

test("an administrator adds, edits and deletes a tag, with its toasts and the range text", async ({
  page,
}, testInfo) => {
  // Ten API calls and a dozen dialogs: minutes on a loaded machine.
  test.setTimeout(300_000);
  const errors = await startSignedIn(page, DESKTOP);
  // Names of this attempt's own, so a retry does not meet the first attempt's tags.
  const run = Date.now().toString(36).slice(-5);
  const tag = `台风 e2e ${run}`;

  // Ten tags through the API, so the list has a second page.
  const headers = { authorization: `Bearer ${await accessToken(page)}` };
  const before = await page.request.get("/dams/api/v1/tag", { headers });
  const initial = ((await before.json()) as { data: { totalElements: number } }).data.totalElements;
  for (let index = 1; index <= 10; index += 1) {
    const name = `e2e 批量 ${run} ${String(index).padStart(2, "0")}`;
    const created = await page.request.post("/dams/api/v1/tag", { headers, data: { name } });
    expect(created.status(), await created.text()).toBe(200);
  }

  await page.goto("/manage/setting/tag", { waitUntil: "networkidle" });
  await expect(page.getByText(range(1, 10, initial + 10))).toBeVisible();

  // Add: the modal is titled 添加 and 600 px wide; the name rule blocks an empty submit.
  await page.getByRole("button", { name: button("crud.add") }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByText(zh("crud.add"), { exact: true })).toBeVisible();
  // Measured once the opening animation has ended.
  await expect.poll(async () => (await page.locator(".ant-modal").boundingBox())?.width).toBe(600);
  await dialog.locator(".ant-modal-footer .ant-btn-primary").click();
  await expect(dialog.getByText(zh("catalogue.name.required"))).toBeVisible();
  await dialog.getByLabel(zh("catalogue.name")).fill(tag);
  await dialog.getByLabel(zh("catalogue.tag.color")).fill("#f5222d");
  await snapshot(page, testInfo, "tag-add");
  await dialog.locator(".ant-modal-footer .ant-btn-primary").click();
  await expectToast(page, zh("crud.saved"));
  await expect(dialog).toBeHidden();
  await expect(page.getByText(range(1, 10, initial + 11))).toBeVisible();

  // A name already taken, in another case, is refused with the server's message as a toast, in the UI's language.
  await page.getByRole("button", { name: button("crud.add") }).click();
  const taken = `E2E 批量 ${run} 01`;
  await dialog.getByLabel(zh("catalogue.name")).fill(taken);
  await dialog.locator(".ant-modal-footer .ant-btn-primary").click();
  await expectToast(page, zh("server.catalogue.duplicateName").replace("{{name}}", taken));
  await dialog.locator(".ant-modal-footer .ant-btn").first().click();
  await expect(dialog).toBeHidden();

  // Edit: find the tag by keyword; the modal is titled 编辑 and holds its values.
  await page.getByPlaceholder(zh("crud.keyword")).fill(tag);
  await page.getByPlaceholder(zh("crud.keyword")).press("Enter");
  await expect(page.getByText(range(1, 1, 1))).toBeVisible();
  const row = page.getByRole("row").filter({ hasText: tag });
  await row.getByRole("button", { name: button("crud.edit") }).click();
  await expect(dialog.getByText(zh("crud.edit"), { exact: true })).toBeVisible();
  await expect(dialog.getByLabel(zh("catalogue.name"))).toHaveValue(tag);
  await dialog.getByLabel(zh("catalogue.name")).fill(`${tag} 已改`);
  await dialog.locator(".ant-modal-footer .ant-btn-primary").click();
  await expectToast(page, zh("crud.saved"));
  await expect(page.getByRole("cell", { name: `${tag} 已改` })).toBeVisible();

  // Delete: 确认删除？ then 删除成功, and the list is empty for the keyword.
  await page
    .getByRole("row")
    .filter({ hasText: `${tag} 已改` })
    .getByRole("button", { name: button("crud.delete") })
    .click();
  const confirm = page.locator(".ant-popconfirm");
  await expect(confirm.getByText(zh("crud.deleteConfirm"))).toBeVisible();
  // The window only: a full-page screenshot resizes the page for a moment, and at a load of 36 the popconfirm
  // was gone after it (its OK button not found for 120 s, twice).
  await snapshot(page, testInfo, "tag-delete-confirm", { fullPage: false });
  await confirm.getByRole("button", { name: button("crud.ok") }).click();
  await expectToast(page, zh("crud.deleted"));
  await expect(page.getByRole("cell", { name: `${tag} 已改` })).toHaveCount(0);

  await page.getByPlaceholder(zh("crud.keyword")).fill("");
  await page.getByPlaceholder(zh("crud.keyword")).press("Enter");
  await expect(page.getByText(range(1, 10, initial + 10))).toBeVisible();
  // Chromium logs the refused duplicate (409) as a failed resource; nothing else may fail.
  expect(errors.filter((error) => !error.includes("status of 409"))).toEqual([]);
});

test("a tag stories use is merged into another instead of deleted, and the stories follow", async ({
  page,
}, testInfo) => {
  test.setTimeout(300_000);
  const errors = await startSignedIn(page, DESKTOP);
  const run = `e2emerge${Date.now().toString(36)}`;
  const headers = { authorization: `Bearer ${await accessToken(page)}` };
  const tag = async (name: string) => {
    const created = await page.request.post("/dams/api/v1/tag", { headers, data: { name } });
    expect(created.status(), await created.text()).toBe(200);
    return ((await created.json()) as { data: { id: string } }).data.id;
  };
  // One word each, so a full-text search for one cannot match the other (or the story's title).
  const oldName = `Oldtag${run}`;
  const newName = `Newtag${run}`;
  await tag(oldName);
  await tag(newName);
  const created = await page.request.post("/dams/api/v1/workflow-story-create/photo", {
    headers,
    data: { libraryId: "product", title: `merge story ${run}`, tags: [oldName, "e2e"] },
  });
  expect(created.status(), await created.text()).toBe(200);
  const storyId = ((await created.json()) as { data: { id: string } }).data.id;

  await page.goto("/manage/setting/tag", { waitUntil: "networkidle" });
  await page.getByPlaceholder(zh("crud.keyword")).fill(run);
  await page.getByPlaceholder(zh("crud.keyword")).press("Enter");
  await expect(page.getByText(range(1, 2, 2))).toBeVisible();

  // The delete is refused (a story uses the tag); the refusal offers the merge.
  await page
    .getByRole("row")
    .filter({ hasText: oldName })
    .getByRole("button", { name: button("crud.delete") })
    .click();
  await confirmPopconfirm(page);
  const dialog = page.getByRole("dialog").filter({ has: page.getByTestId("crud-merge") });
  const refusal = zh("server.catalogue.inUse_one").replace("{{name}}", oldName).replace("{{count}}", "1");
  await expect(dialog.getByText(refusal)).toBeVisible();
  const ok = dialog.getByRole("button", { name: button("crud.merge.ok") });
  await expect(ok).toBeDisabled();

  // The picker offers the other tags, not this one; pick the target, read what will happen, confirm.
  await dialog.locator(".ant-select").click();
  await dialog.locator(".ant-select input").fill(run);
  const options = page.locator(".ant-select-dropdown:visible .ant-select-item-option");
  await expect(options.filter({ hasText: newName })).toHaveCount(1);
  await expect(options.filter({ hasText: oldName })).toHaveCount(0);
  await options.filter({ hasText: newName }).click();
  await expect(dialog.getByTestId("crud-merge-explain")).toContainText(newName);
  await snapshot(page, testInfo, "tag-merge");
  await ok.click();
  await expectToast(page, zh("crud.merge.done").replace("{{into}}", newName).replace("{{count}}", "1"));
  await expect(dialog).toBeHidden();
  await expect(page.getByText(range(1, 1, 1))).toBeVisible();
  await expect(page.getByRole("cell", { name: oldName })).toHaveCount(0);

  // The story now carries the target, and search finds it by the target's name only (the page has
  // refreshed its short-lived access token meanwhile: the current one).
  const fresh = { authorization: `Bearer ${await accessToken(page)}` };
  const story = await page.request.get(`/dams/api/v1/stories/product/${storyId}`, { headers: fresh });
  expect(story.status(), await story.text()).toBe(200);
  expect(((await story.json()) as { data: { tags: string[] } }).data.tags).toEqual([newName, "e2e"]);
  const found = async (text: string) => {
    const response = await page.request.get(`/dams/api/v1/stories?fulltext=${encodeURIComponent(text)}`, {
      headers: fresh,
    });
    return ((await response.json()) as { data: { content: { id: string }[] } }).data.content.map((item) => item.id);
  };
  expect(await found(newName)).toContain(storyId);
  expect(await found(oldName)).not.toContain(storyId);
  expect(errors.filter((error) => !error.includes("status of 409"))).toEqual([]);
});
