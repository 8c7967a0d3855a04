import { expect, test } from "@playwright/test";
import {
  buttonName as button,
  confirmPopconfirm,
  expectNoHorizontalOverflow,
  expectToast,
  openApp,
  snapshot,
  watchConsoleErrors,
  zh,
} from "./helpers.js";

test("an administrator creates, edits, archives, restores and deletes a library", async ({ page }, testInfo) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1366, height: 900 });
  const errors = watchConsoleErrors(page);
  await openApp(page, "/manage/setting/library");
  // The first visit loads the page's chunks on a busy machine: a generous bound.
  await expect(page.getByRole("cell", { name: "成品库" })).toBeVisible({ timeout: 60_000 });
  await snapshot(page, testInfo, "library-list-1366");

  // Add: code, name, two story types.
  await page.getByRole("button", { name: button(zh("crud.add")) }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel(zh("libraryAdmin.code")).fill("e2e-sports");
  await dialog.getByLabel(zh("libraryAdmin.name")).fill("体育库 e2e");
  // A click that lands while the dialog's form is still settling does not take (Playwright says so): try again.
  for (const type of ["photo", "video"] as const)
    await expect(() => dialog.getByLabel(zh(`libraryAdmin.storyType.${type}`)).check({ timeout: 5_000 })).toPass();
  await dialog.locator(".ant-modal-footer .ant-btn-primary").click();
  await expectToast(page, zh("crud.saved"));
  const row = page.getByRole("row").filter({ hasText: "体育库 e2e" });
  await expect(row).toContainText(`${zh("libraryAdmin.storyType.photo")}、${zh("libraryAdmin.storyType.video")}`);
  await expect(row).toContainText(zh("libraryAdmin.status.active"));

  // The same code again is refused with the server's words.
  await page.getByRole("button", { name: button(zh("crud.add")) }).click();
  await dialog.getByLabel(zh("libraryAdmin.code")).fill("e2e-sports");
  await dialog.getByLabel(zh("libraryAdmin.name")).fill("again");
  await dialog.locator(".ant-modal-footer .ant-btn-primary").click();
  await expectToast(page, "", { kind: "error" });
  await dialog.locator(".ant-modal-footer .ant-btn").first().click();
  await expect(dialog).toBeHidden();

  // Edit: the code is fixed, the name changes.
  await row.getByRole("button", { name: button(zh("crud.edit")) }).click();
  await expect(dialog.getByLabel(zh("libraryAdmin.code"))).toBeDisabled();
  await dialog.getByLabel(zh("libraryAdmin.name")).fill("体育图片库 e2e");
  await snapshot(page, testInfo, "library-edit-1366");
  await dialog.locator(".ant-modal-footer .ant-btn-primary").click();
  await expectToast(page, zh("crud.saved"));
  const renamed = page.getByRole("row").filter({ hasText: "体育图片库 e2e" });

  // Archive, then restore.
  await renamed.getByRole("button", { name: button(zh("libraryAdmin.archive")) }).click();
  await confirmPopconfirm(page);
  await expect(renamed).toContainText(zh("libraryAdmin.status.archived"));
  await renamed.getByRole("button", { name: button(zh("libraryAdmin.restore")) }).click();
  await confirmPopconfirm(page);
  await expect(renamed).toContainText(zh("libraryAdmin.status.active"));

  // A built-in library is not deleted: the refusal names it.
  const product = page.getByRole("row").filter({ hasText: "成品库" });
  await product.getByRole("button", { name: button(zh("crud.delete")) }).click();
  await confirmPopconfirm(page);
  await expectToast(page, zh("server.library.builtIn").replace("{{name}}", "成品库"));

  // Delete the empty new one.
  await renamed.getByRole("button", { name: button(zh("crud.delete")) }).click();
  await confirmPopconfirm(page);
  await expectToast(page, zh("crud.deleted"));
  await expect(renamed).toHaveCount(0);

  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload({ waitUntil: "networkidle" });
  await expect(page.getByRole("cell", { name: "成品库" })).toBeVisible({ timeout: 60_000 });
  await snapshot(page, testInfo, "library-list-390");
  await expectNoHorizontalOverflow(page);
  // The refusals asked for above (a taken code, a built-in library) are the only failed loads.
  expect(errors.filter((text) => !text.includes("status of 409"))).toEqual([]);
});
