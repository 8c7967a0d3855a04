import path from "node:path";
import { expect } from "@playwright/test";
import {
  buttonName as button,
  confirmPopconfirm,
  expectNoHorizontalOverflow,
  expectToast,
  LAPTOP,
  pickOption,
  snapshot,
  test,
  zh,
} from "./helpers.js";
import { API, PHOTOS, seedingHeaders, upload } from "./seed.js";

test.use({ viewport: LAPTOP });

/** A message with its {{placeholders}} as a pattern. */
const pattern = (text: string): RegExp =>
  new RegExp(text.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{\{\w+\}\}/g, ".+"));

test("an administrator adds a storage target, tests it, moves a library's files there and cannot delete it while used", async ({
  page,
  signedIn: errors,
}, testInfo) => {
  test.setTimeout(300_000);
  const run = String(Date.now()).slice(-6);
  const { token, headers: auth } = await seedingHeaders(page, "storage");

  // A library of our own with two photos in the built-in storage.
  const libraryId = `e2e-store-${run}`;
  const libraryName = `存储迁移库 ${run}`;
  const made = await page.request.post(`${API}/library-settings`, {
    headers: auth,
    data: { id: libraryId, name: libraryName },
  });
  expect(made.status(), await made.text()).toBe(200);
  for (const photo of ["Canon_40D.jpg", "Nikon_D70.jpg"]) {
    await upload(page.request, token, path.join(PHOTOS, photo), { libraryId, title: `${photo} ${run}` });
  }

  // The buckets page: the built-in storage is listed; a local folder is added after a passing test.
  await page.goto("/manage/setting/bucket", { waitUntil: "networkidle" });
  await expect(page.getByRole("cell", { name: zh("storage.builtIn.local") })).toBeVisible({ timeout: 60_000 });
  await page.getByRole("button", { name: button(zh("storage.add")) }).click();
  const dialog = page.getByRole("dialog");
  const targetName = `本地归档 ${run}`;
  await dialog.getByLabel(zh("storage.name")).fill(targetName);
  await dialog.getByRole("textbox", { name: zh("storage.directory") }).fill(`e2e-archive-${run}`);
  await dialog.getByRole("button", { name: button(zh("storage.test")) }).click();
  await expect(dialog.getByTestId("storage-form-test")).toContainText(pattern(zh("storage.test.ok")));
  await snapshot(page, testInfo, "bucket-add-1366");
  await dialog.locator(".ant-modal-footer .ant-btn-primary").click();
  await expectToast(page, zh("storage.saved"));
  await expect(dialog).toBeHidden();
  const targetRow = page.getByRole("row").filter({ hasText: targetName });
  await expect(targetRow).toContainText(`targets/e2e-archive-${run}`);
  await targetRow.getByRole("button", { name: button(zh("storage.test")) }).click();
  await expectToast(page, targetName, { kind: "success" });

  // A folder name that could leave targets/ is refused in the form.
  await page.getByRole("button", { name: button(zh("storage.add")) }).click();
  await dialog.getByLabel(zh("storage.name")).fill(`bad ${run}`);
  await dialog.getByRole("textbox", { name: zh("storage.directory") }).fill("../etc");
  await dialog.locator(".ant-modal-footer .ant-btn-primary").click();
  await expect(dialog.getByText(zh("storage.directory.pattern"))).toBeVisible();
  await dialog
    .locator(".ant-modal-footer .ant-btn")
    .filter({ hasText: button(zh("crud.cancel")) })
    .click();
  await expect(dialog).toBeHidden();
  await snapshot(page, testInfo, "bucket-list-1366");

  // The storage settings: move the library to the new folder; the move runs as a job with its progress.
  await page.goto("/manage/storage/setting", { waitUntil: "networkidle" });
  // The first table is the libraries' targets; the quotas card below lists the libraries again.
  const libraryRow = page.getByRole("row").filter({ hasText: libraryName }).first();
  await expect(libraryRow).toBeVisible({ timeout: 60_000 });
  await libraryRow.getByRole("button", { name: button(zh("storage.settings.move")) }).click();
  const moveDialog = page.getByRole("dialog");
  await pickOption(page, moveDialog.locator(".ant-select"), targetName);
  await snapshot(page, testInfo, "storage-move-1366");
  await moveDialog.locator(".ant-modal-footer .ant-btn-primary").click();
  await expectToast(page, zh("storage.settings.move.started"));
  await expect(libraryRow).toContainText(pattern(zh("storage.move.succeeded")), { timeout: 120_000 });
  await expect(libraryRow.locator(".ant-select-selection-item")).toHaveText(targetName);

  // A new upload lands in the library's target: the target now holds the files and cannot be deleted.
  await upload(page.request, token, path.join(PHOTOS, "Canon_40D.jpg"), { libraryId, title: `after ${run}` });
  const targets = await page.request.get(`${API}/storage/targets`, { headers: auth });
  const target = ((await targets.json()) as { data: { name: string; files: number; libraries: number }[] }).data.find(
    (candidate) => candidate.name === targetName,
  );
  expect(target?.libraries).toBe(1);
  expect(target?.files).toBeGreaterThanOrEqual(3);
  await snapshot(page, testInfo, "storage-setting-1366");

  // The quotas card: the library's usage, a quota set in the dialog (2 GB), shown beside the usage.
  await page.reload({ waitUntil: "networkidle" });
  const quotaRow = page.getByTestId("quotas-card").getByRole("row").filter({ hasText: libraryName });
  await expect(quotaRow).toContainText(zh("storage.quotas.unlimited"), { timeout: 60_000 });
  await quotaRow.getByRole("button", { name: button(zh("storage.quotas.set")) }).click();
  const quotaDialog = page.getByRole("dialog");
  await quotaDialog.getByRole("checkbox").uncheck();
  await quotaDialog.getByRole("spinbutton").fill("2");
  await snapshot(page, testInfo, "storage-quota-dialog-1366");
  await quotaDialog.locator(".ant-modal-footer .ant-btn-primary").click();
  await expectToast(page, zh("storage.quotas.saved"));
  await expect(quotaRow).toContainText("2.00 GB");
  await expect(quotaRow.locator(".ant-progress")).toBeVisible();
  await page.getByTestId("quotas-card").scrollIntoViewIfNeeded();
  await snapshot(page, testInfo, "storage-quotas-1366");

  await page.goto("/manage/setting/bucket", { waitUntil: "networkidle" });
  await targetRow.getByRole("button", { name: button(zh("crud.delete")) }).click();
  await confirmPopconfirm(page);
  await expectToast(page, targetName, { kind: "error" });

  // Phone width: both pages fit.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/manage/setting/bucket", { waitUntil: "networkidle" });
  await expect(page.getByRole("row").filter({ hasText: targetName })).toBeVisible({ timeout: 60_000 });
  await expectNoHorizontalOverflow(page, 1);
  await snapshot(page, testInfo, "bucket-list-390");
  await page.goto("/manage/storage/setting", { waitUntil: "networkidle" });
  await expect(page.getByRole("row").filter({ hasText: libraryName }).first()).toBeVisible({ timeout: 60_000 });
  await expectNoHorizontalOverflow(page, 1);
  await snapshot(page, testInfo, "storage-setting-390");

  // /manage/storage is the menu group: it opens its settings page.
  await page.goto("/manage/storage", { waitUntil: "networkidle" });
  await expect(page).toHaveURL(/\/manage\/storage\/setting$/);

  // Chromium logs the refused delete (409) as a failed resource; nothing else may fail.
  expect(errors.filter((error) => !error.includes("status of 409"))).toEqual([]);
});
