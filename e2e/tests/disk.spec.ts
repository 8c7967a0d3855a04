import { randomFillSync } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import {
  chooseMenuItem,
  expectNoHorizontalOverflow,
  openApp,
  signIn,
  snapshot,
  watchConsoleErrors,
  zh,
} from "./helpers.js";
import { API, accessToken, PHOTOS } from "./seed.js";

const colleague = { username: "disk.colleague", name: "Disk Colleague", password: "colleague-password-1" };

async function ensureColleague(page: Page, request: APIRequestContext): Promise<void> {
  const headers = { authorization: `Bearer ${await accessToken(page)}` };
  const existing = await request.get(`${API}/users?keyword=${colleague.username}`, { headers });
  const users = ((await existing.json()) as { data: { content: { username: string }[] } }).data.content;
  if (users.some((user) => user.username === colleague.username)) return;
  const created = await request.post(`${API}/users`, { headers, data: { ...colleague, roleId: "editor" } });
  expect(created.status(), await created.text()).toBe(200);
}

/** A string of the web app with its {{values}} filled in. */
function zhWith(key: string, values: Record<string, string | number>): string {
  return Object.entries(values).reduce((text, [name, value]) => text.replace(`{{${name}}}`, String(value)), zh(key));
}

async function itemMenu(page: Page, name: string, action: string): Promise<void> {
  const row = page.getByTestId("disk-table").locator("tr", { has: page.getByText(name, { exact: true }) });
  await chooseMenuItem(page, row.getByTestId("disk-item-menu"), zh(`disk.action.${action}`));
}

/** Uploads a file through the disk's uploader (Uppy's Dashboard in a dialog) into the open folder, and closes it. */
async function uploadToDisk(page: Page, file: string, timeout: number): Promise<void> {
  await page.getByTestId("disk-upload-open").click();
  await page.locator("input.uppy-Dashboard-input[type=file]").first().setInputFiles(file);
  await page.locator(".uppy-StatusBar-actionBtn--upload").click();
  await expect(page.locator(".uppy-StatusBar.is-complete")).toBeVisible({ timeout });
  // The upload button is gone with the upload, and the focus with it, so Escape may reach no dialog: close by its ×.
  await page
    .locator(".ant-modal")
    .filter({ has: page.getByTestId("disk-upload") })
    .locator(".ant-modal-close")
    .click();
  await expect(page.getByTestId("disk-upload")).toBeHidden();
}

test("the network disk: upload into a folder, send to a library, share the folder with a colleague who finds it", async ({
  page,
  browser,
  request,
}, testInfo) => {
  test.setTimeout(180_000);
  const errors = watchConsoleErrors(page);
  const folder = `Assignments ${Date.now().toString(36)}`;
  const photo = "Canon_40D.jpg";
  await page.setViewportSize({ width: 1366, height: 900 });
  await openApp(page, "/frontend/search");
  await ensureColleague(page, request);

  await openApp(page, "/source/ismpnetdisk");
  await expect(page.getByTestId("disk-quota")).toBeVisible();
  await page.getByTestId("disk-new-folder").click();
  await page.getByTestId("disk-name-input").fill(folder);
  await page.getByTestId("disk-name-ok").click();
  await page.getByTestId("disk-item").filter({ hasText: folder }).click();
  await expect(page.getByTestId("disk-path")).toContainText(folder);

  // Upload with tus through the uploader's Dashboard (progress, pause, resume are Uppy's).
  await uploadToDisk(page, path.join(PHOTOS, photo), 60_000);
  await expect(page.getByTestId("disk-table").getByText(photo, { exact: true })).toBeVisible({ timeout: 60_000 });
  await snapshot(page, testInfo, "disk-1366");

  // Send to a library: a draft story through the one ingest command.
  await itemMenu(page, photo, "send");
  await page.getByTestId("disk-send-ok").click();
  await expect(page.getByText(zhWith("disk.send.done", { count: 1 }))).toBeVisible({ timeout: 30_000 });

  // Share the folder with the colleague, as edit.
  await page
    .getByTestId("disk-path")
    .getByRole("button", { name: zh("disk.root") })
    .click();
  await itemMenu(page, folder, "share");
  await page.getByTestId("disk-share-username").fill(colleague.username);
  await page.getByText(zh("disk.level.edit"), { exact: true }).click();
  await page.getByTestId("disk-share-ok").click();
  await expect(page.getByRole("dialog").getByText(colleague.username)).toBeVisible();
  await page.keyboard.press("Escape");

  // The colleague, on a phone, finds it under "shared with me" and opens it.
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const colleaguePage = await phone.newPage();
  await signIn(colleaguePage, colleague.username, colleague.password);
  await colleaguePage.goto("/source/ismpnetdisk", { waitUntil: "networkidle" });
  await colleaguePage.getByText(zh("disk.view.shared"), { exact: true }).click();
  const shared = colleaguePage.getByTestId("disk-shared-item").filter({ hasText: folder });
  await expect(shared).toBeVisible();
  await expect(colleaguePage.getByText(zhWith("disk.sharedBy", { name: "admin" })).first()).toBeVisible();
  await snapshot(colleaguePage, testInfo, "disk-shared-with-me-390");
  await expectNoHorizontalOverflow(colleaguePage);
  await shared.click();
  await expect(colleaguePage.getByTestId("disk-table").getByText(photo, { exact: true })).toBeVisible();
  await snapshot(colleaguePage, testInfo, "disk-shared-folder-390");
  await expectNoHorizontalOverflow(colleaguePage);
  await phone.close();

  // What I shared, with revoke.
  await openApp(page, "/share/netdisk");
  const row = page.getByTestId("share-netdisk").locator("tr", { hasText: folder });
  await expect(row).toContainText(colleague.username, { timeout: 30_000 });
  await snapshot(page, testInfo, "share-netdisk-1366");
  // On a phone: one column, with whom and revoke under the item, nothing scrolled sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(row.getByTestId("share-netdisk-revoke")).toBeVisible();
  await expect(row).toContainText(colleague.username);
  await expectNoHorizontalOverflow(page);
  await snapshot(page, testInfo, "share-netdisk-390");
  await page.setViewportSize({ width: 1366, height: 900 });
  await row.getByTestId("share-netdisk-revoke").click();
  await page.getByRole("button", { name: /OK|确\s*定/ }).click();
  await expect(row).toHaveCount(0);
  expect(errors).toEqual([]);
});

test("a file larger than the old 50 MiB chunk goes up to the network disk in one PATCH", async ({ page }, testInfo) => {
  test.setTimeout(300_000);
  const errors = watchConsoleErrors(page);
  // A real JPEG head (the content check must accept it), then random bytes: 64 MiB, past the 50 MiB PATCHes the
  // web app used to cut every file into (issue 20: one request a file unless DAMS_UPLOAD_CHUNK_MIB says otherwise).
  const name = `large-${Date.now().toString(36)}.jpg`;
  const file = testInfo.outputPath(name);
  const head = fs.readFileSync(path.join(PHOTOS, "Canon_40D.jpg"));
  const bytes = Buffer.alloc(64 * 1024 * 1024);
  head.copy(bytes);
  randomFillSync(bytes, head.length);
  fs.writeFileSync(file, bytes);
  const uploadRequests: string[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname.startsWith(`${API}/uploads`)) uploadRequests.push(request.method());
  });

  await page.setViewportSize({ width: 1366, height: 900 });
  await openApp(page, "/source/ismpnetdisk");
  await expect(page.getByTestId("disk-quota")).toBeVisible();
  await uploadToDisk(page, file, 240_000);
  await expect(page.getByTestId("disk-table").getByText(name, { exact: true })).toBeVisible({ timeout: 60_000 });
  expect(uploadRequests.filter((method) => method === "PATCH")).toHaveLength(1);
  expect(uploadRequests.filter((method) => method === "POST")).toHaveLength(1);
  fs.rmSync(file);
  expect(errors).toEqual([]);
});
