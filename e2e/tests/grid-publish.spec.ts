import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect } from "@playwright/test";
import monitorZh from "../../web/src/locales/monitor/zh-CN.js";
import { buttonName, expectNoHorizontalOverflow, LAPTOP, snapshot, test, watchConsoleErrors, zh } from "./helpers.js";
import { API, commitAndProcess, PHOTOS, type Seeded, seedingHeaders, upload } from "./seed.js";

test.use({ viewport: LAPTOP });

const mz = (key: keyof typeof monitorZh): string => monitorZh[key];

test("grid publish: three stories selected in the grid go to a folder channel, and the open monitor shows each succeed without a reload", async ({
  page,
  signedIn: errors,
}, testInfo) => {
  test.setTimeout(300_000);
  const run = String(Date.now()).slice(-6);
  const outbox = fs.mkdtempSync(path.join(process.env.E2E_DATA_DIR ?? os.tmpdir(), "grid-publish-"));
  const { token, headers: auth } = await seedingHeaders(page);
  const channelName = `图片 文件夹 ${run}`;
  const created = await page.request.post(`${API}/channels`, {
    headers: auth,
    data: { name: channelName, kind: "folder", format: "ninjs", settings: { path: outbox } },
  });
  expect(created.status(), await created.text()).toBe(200);
  const channelId = ((await created.json()) as { data: { id: string } }).data.id;
  const photos: Seeded[] = [];
  for (const [index, file] of ["Canon_40D.jpg", "Nikon_D70.jpg", "Kodak_CX7530.jpg"].entries())
    photos.push(
      await upload(page.request, token, path.join(PHOTOS, file), {
        libraryId: "product",
        title: `选集 发布 ${run} ${index + 1}`,
      }),
    );
  await commitAndProcess(page.request, token, photos);
  // The first already went to the channel: the dialog says 1 of 3.
  const first = await page.request.post(`${API}/workflow-story-publish/product/${photos[0]!.storyId}`, {
    headers: auth,
    data: { channels: [channelId] },
  });
  expect(first.status(), await first.text()).toBe(200);
  await expect
    .poll(() => fs.readdirSync(outbox).filter((name) => name.startsWith(photos[0]!.storyId)).length, {
      timeout: 60_000,
    })
    .toBe(2);

  // The publish monitor, open in a second tab, filtered to the run; its live stream is up.
  const monitor = await page.context().newPage();
  await monitor.setViewportSize({ width: 1366, height: 900 });
  const monitorErrors = watchConsoleErrors(monitor);
  await monitor.goto("/manage/monitor/publish");
  await monitor.getByPlaceholder(mz("monitor.publish.filterKeyword")).fill(`选集 发布 ${run}`);
  await monitor.getByPlaceholder(mz("monitor.publish.filterKeyword")).press("Enter");
  await expect(monitor.getByTestId("monitor-live")).toHaveAttribute("data-live", "true", { timeout: 30_000 });
  await expect(monitor.locator("tr", { hasText: channelName })).toHaveCount(1);

  // The grid: select the three, publish.
  await page.goto(`/frontend/search?fulltext=${encodeURIComponent(`选集 发布 ${run}`)}`, { waitUntil: "networkidle" });
  for (const photo of photos) {
    const card = page.locator(`[data-testid="story-card"][data-story="product/${photo.storyId}"]`);
    await expect(card).toBeVisible({ timeout: 30_000 });
    await card.getByRole("checkbox").check();
  }
  const bar = page.getByTestId("selection-bar");
  await expect(bar).toContainText(zh("stories.selected").replace("{{count}}", "3"));
  await bar.getByTestId("selection-publish").click();
  const dialog = page.locator(".ant-modal-content").filter({ has: page.getByTestId("batch-publish-body") });
  await expect(dialog).toBeVisible();
  const option = dialog.locator("label.ant-checkbox-wrapper").filter({ hasText: channelName });
  await expect(option).toContainText(zh("publish.batch.already").replace("{{count}}", "1").replace("{{total}}", "3"));
  await option.click();
  await snapshot(page, testInfo, "grid-publish-dialog-1366");
  await dialog.locator(".ant-modal-footer .ant-btn-primary").click();
  const results = dialog.getByTestId("batch-publish-result");
  await expect(results).toHaveCount(3, { timeout: 30_000 });
  await expect(dialog.locator('[data-testid="batch-publish-result"][data-ok="true"]')).toHaveCount(3);
  await expect(results.first()).toContainText(zh("publish.batch.ok").replace("{{count}}", "1"));
  await snapshot(page, testInfo, "grid-publish-results-1366");
  await dialog.locator(".ant-modal-footer .ant-btn-primary").click();
  await expect(dialog).toBeHidden();

  // The monitor tab was not reloaded: the three new deliveries appear and succeed by its stream.
  const rows = monitor.locator("tr", { hasText: channelName });
  await expect(rows).toHaveCount(4, { timeout: 60_000 });
  for (let index = 0; index < 4; index++)
    await expect(rows.nth(index).getByTestId("delivery-state")).toHaveText(zh("publish.state.succeeded"), {
      timeout: 60_000,
    });
  await expect(monitor.getByTestId("monitor-live")).toHaveAttribute("data-live", "true");
  await snapshot(monitor, testInfo, "grid-publish-monitor-1366");
  expect(fs.readdirSync(outbox).length).toBe(6);
  // The tab in front, so it renders (and its breakpoint listeners fire) at the phone's width.
  await monitor.bringToFront();
  await monitor.setViewportSize({ width: 390, height: 844 });
  await expectNoHorizontalOverflow(monitor);
  await snapshot(monitor, testInfo, "grid-publish-monitor-390");
  await monitor.close();

  // On a phone: the selection bar's publish and the dialog fit.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/frontend/search?fulltext=${encodeURIComponent(`选集 发布 ${run}`)}`, { waitUntil: "networkidle" });
  const card = page.locator(`[data-testid="story-card"][data-story="product/${photos[1]!.storyId}"]`);
  await expect(card).toBeVisible({ timeout: 30_000 });
  await card.getByRole("checkbox").check();
  await page.getByTestId("selection-publish").click();
  const phoneDialog = page.locator(".ant-modal-content").filter({ has: page.getByTestId("batch-publish-body") });
  await expect(phoneDialog).toBeVisible();
  await expect(phoneDialog.locator("label.ant-checkbox-wrapper").filter({ hasText: channelName })).toContainText(
    zh("publish.batch.already").replace("{{count}}", "1").replace("{{total}}", "1"),
  );
  await expectNoHorizontalOverflow(page);
  await snapshot(page, testInfo, "grid-publish-dialog-390");
  await phoneDialog.getByRole("button", { name: buttonName(zh("crud.cancel")) }).click();

  expect([...errors, ...monitorErrors]).toEqual([]);
  fs.rmSync(outbox, { recursive: true, force: true });
});
