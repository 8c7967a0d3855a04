import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, type Locator, type Page } from "@playwright/test";
import channelsZh from "../../web/src/locales/channels/zh-CN.js";
import monitorZh from "../../web/src/locales/monitor/zh-CN.js";
import { expectNoHorizontalOverflow, expectToast, LAPTOP, snapshot, test, zh } from "./helpers.js";
import { commitAndProcess, PHOTOS, seedingToken, upload } from "./seed.js";

test.use({ viewport: LAPTOP });

const cz = (key: keyof typeof channelsZh): string => channelsZh[key];
const mz = (key: keyof typeof monitorZh): string => monitorZh[key];
/** A button's accessible name: antd puts a space between two Chinese characters (确 定). */
const button = (text: string): RegExp =>
  new RegExp([...text].map((c) => c.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("\\s*"));

/** Adds a folder channel through the page's dialog. */
async function addFolderChannel(page: Page, name: string, folder: string): Promise<void> {
  await page.getByRole("button", { name: button(zh("crud.add")) }).click();
  const dialog = page.locator(".ant-modal-content").filter({ hasText: cz("channels.kind") });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel(zh("catalogue.name")).fill(name);
  await dialog.getByLabel(cz("channels.settings.path")).fill(folder);
  await dialog.locator(".ant-modal-footer .ant-btn-primary").click();
  await expectToast(page, zh("crud.saved"));
  await expect(dialog).toBeHidden();
}

/** Runs "test connection" on a row and answers the result dialog's text, then closes it. */
async function testConnection(page: Page, row: Locator): Promise<string> {
  await row.getByRole("button", { name: button(cz("channels.test")) }).click();
  const result = page.getByTestId("channel-test-result");
  await expect(result).toBeVisible({ timeout: 30_000 });
  const text = (await result.textContent()) ?? "";
  const confirm = page.locator(".ant-modal-confirm");
  return `${await confirm.locator(".ant-modal-confirm-title").textContent()}|${text}`;
}

async function closeConfirm(page: Page): Promise<void> {
  const confirm = page.locator(".ant-modal-confirm");
  await confirm.locator(".ant-modal-confirm-btns .ant-btn").click();
  await expect(page.getByTestId("channel-test-result")).toHaveCount(0);
}

test("channels: a folder channel is created and tested, a story published from the viewer succeeds in the monitor; a failing channel shows its reason and a retry works", async ({
  page,
  signedIn: errors,
}, testInfo) => {
  test.setTimeout(240_000);
  const run = String(Date.now()).slice(-6);
  const base = fs.mkdtempSync(path.join(process.env.E2E_DATA_DIR ?? os.tmpdir(), "channels-journey-"));
  const outbox = path.join(base, "outbox");
  fs.mkdirSync(outbox);
  // The failing channel's "folder" is a file at first: a delivery there fails at once with its reason.
  const notAFolder = path.join(base, "not-a-folder");
  fs.writeFileSync(notAFolder, "a file, not a folder");
  const good = `网站 文件夹 ${run}`;
  const bad = `坏渠道 ${run}`;

  await page.goto("/manage/setting/tunnel", { waitUntil: "networkidle" });
  await addFolderChannel(page, good, outbox);
  const goodRow = page.locator("tr", { hasText: good });
  await expect(goodRow).toContainText(cz("channels.kind.folder"));
  await expect(goodRow).toContainText(cz("channels.on"));
  const passed = await testConnection(page, goodRow);
  expect(passed).toContain(cz("channels.test.ok").replace("{{name}}", good));
  expect(passed).toContain(`${outbox} exists and the server can write to it`);
  await snapshot(page, testInfo, "channels-test-1366");
  await closeConfirm(page);

  await addFolderChannel(page, bad, notAFolder);
  const badRow = page.locator("tr", { hasText: bad });
  const failed = await testConnection(page, badRow);
  expect(failed).toContain(cz("channels.test.failed").replace("{{name}}", bad));
  expect(failed).toContain(`${notAFolder} is not a folder`);
  await closeConfirm(page);

  // The edit dialog: the kind's settings as stored; the presets and the mapping sections are there.
  await goodRow.getByRole("button", { name: button(zh("crud.edit")) }).click();
  const dialog = page.locator(".ant-modal-content").filter({ hasText: cz("channels.kind") });
  await expect(dialog.getByLabel(cz("channels.settings.path"))).toHaveValue(outbox);
  await dialog.getByText(cz("channels.presets")).click();
  await expect(dialog.getByText(cz("channels.preset.help"))).toBeVisible();
  await snapshot(page, testInfo, "channels-edit-1366");
  await dialog.locator(".ant-modal-footer .ant-btn").first().click();
  await expect(dialog).toBeHidden();

  // Publish a story from the viewer to both channels.
  const token = await seedingToken(page);
  const photo = await upload(page.request, token, path.join(PHOTOS, "Canon_40D.jpg"), {
    libraryId: "product",
    title: `渠道 发布 ${run}`,
  });
  await commitAndProcess(page.request, token, [photo]);
  await page.goto(`/frontend/search?story=product/${photo.storyId}`, { waitUntil: "networkidle" });
  await page.getByTestId("story-publish").click();
  const publish = page.locator(".ant-modal-content").filter({ hasText: zh("publish.title") });
  await expect(publish).toBeVisible();
  await publish.locator("label.ant-checkbox-wrapper").filter({ hasText: good }).click();
  await publish.locator("label.ant-checkbox-wrapper").filter({ hasText: bad }).click();
  await snapshot(page, testInfo, "channels-publish-dialog-1366");
  await publish.locator(".ant-modal-footer .ant-btn-primary").click();
  await expect(publish).toBeHidden();

  // The monitor: the good channel's delivery succeeds, the bad one fails with its reason.
  await page.goto("/manage/monitor/publish");
  await page.getByPlaceholder(mz("monitor.publish.filterKeyword")).fill(`渠道 发布 ${run}`);
  await page.getByPlaceholder(mz("monitor.publish.filterKeyword")).press("Enter");
  const goodDelivery = page.locator("tr", { hasText: good });
  const badDelivery = page.locator("tr", { hasText: bad });
  await expect(goodDelivery.getByTestId("delivery-state")).toHaveText(zh("publish.state.succeeded"), {
    timeout: 60_000,
  });
  await expect(badDelivery.getByTestId("delivery-state")).toHaveText(zh("publish.state.failed"), {
    timeout: 60_000,
  });
  await expect(badDelivery.getByTestId("delivery-error")).toContainText(`${notAFolder} is not a folder`);
  expect(fs.readdirSync(outbox).sort()).toEqual([`${photo.storyId}.jpg`, `${photo.storyId}.json`]);
  await snapshot(page, testInfo, "channels-monitor-failed-1366");

  // Fix the destination, retry from the monitor: it succeeds.
  fs.rmSync(notAFolder);
  fs.mkdirSync(notAFolder);
  await badDelivery.getByRole("button", { name: button(mz("monitor.publish.retry")) }).click();
  await expect(badDelivery.getByTestId("delivery-state")).toHaveText(zh("publish.state.succeeded"), {
    timeout: 60_000,
  });
  expect(fs.readdirSync(notAFolder).sort()).toEqual([`${photo.storyId}.jpg`, `${photo.storyId}.json`]);

  // The channels page shows each channel's last delivery; at 390 px too, without horizontal overflow.
  await page.goto("/manage/setting/tunnel", { waitUntil: "networkidle" });
  await expect(page.locator("tr", { hasText: good }).getByTestId("channel-last-state")).toHaveText(
    zh("publish.state.succeeded"),
    { timeout: 20_000 },
  );
  await snapshot(page, testInfo, "channels-list-1366");
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/manage/setting/tunnel", { waitUntil: "networkidle" });
  await expect(page.locator("tr", { hasText: good })).toBeVisible();
  await expectNoHorizontalOverflow(page);
  await snapshot(page, testInfo, "channels-list-390");
  await page.getByRole("button", { name: button(zh("crud.add")) }).click();
  await expect(page.locator(".ant-modal-content").filter({ hasText: cz("channels.kind") })).toBeVisible();
  await snapshot(page, testInfo, "channels-add-390");
  await page.keyboard.press("Escape");

  // Delete: confirmed, the row goes.
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.goto("/manage/setting/tunnel", { waitUntil: "networkidle" });
  await page
    .locator("tr", { hasText: bad })
    .getByRole("button", { name: button(zh("crud.delete")) })
    .click();
  await page
    .locator(".ant-popconfirm")
    .getByRole("button", { name: button(zh("crud.ok")) })
    .click();
  await expect(page.locator("tr", { hasText: bad })).toHaveCount(0);
  expect(errors).toEqual([]);
  fs.rmSync(base, { recursive: true, force: true });
});
