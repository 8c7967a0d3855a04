import { expect, type Page, type TestInfo, test } from "@playwright/test";
import monitorZh from "../../web/src/locales/monitor/zh-CN.js";
import { expectNoHorizontalOverflow, LAPTOP, openApp, PHONE, snapshot, watchConsoleErrors } from "./helpers.js";

const zh = (key: keyof typeof monitorZh): string => monitorZh[key];
/** Each monitor is looked at on a laptop and on a phone. */
const SIZES = [
  { name: "desktop", ...LAPTOP },
  { name: "mobile", ...PHONE },
];

/** Opens `path` at each size, sees `check` hold and the page fit, and snaps it as `<size>-<name>`. */
async function atEachSize(page: Page, testInfo: TestInfo, path: string, name: string, check: () => Promise<void>) {
  for (const size of SIZES) {
    await page.setViewportSize({ width: size.width, height: size.height });
    await openApp(page, path);
    await check();
    await expectNoHorizontalOverflow(page);
    await snapshot(page, testInfo, `${size.name}-${name}`);
  }
}

test("the task monitor shows the queue's counts, its jobs filtered by state, and this server's worker", async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  const errors = watchConsoleErrors(page);
  await atEachSize(page, testInfo, "/manage/monitor/task", "monitor-task", async () => {
    // Every state has its count; the server's own worker has run the recurring maintenance job.
    await expect(page.getByTestId("job-count-queued")).toBeVisible({ timeout: 30_000 });
    for (const state of ["queued", "running", "succeeded", "dead", "cancelled"] as const)
      await expect(page.getByTestId(`job-count-${state}`)).toContainText(zh(`monitor.jobs.state.${state}`));
    const workers = page.getByTestId("worker-table");
    await expect(workers.getByText(zh("monitor.workers.status.running")).first()).toBeVisible({ timeout: 30_000 });
    // Filtered by name (the other journeys' jobs may fill the first pages): the maintenance runs are listed.
    await page.getByTestId("job-filter-name").click();
    await page.locator(".ant-select-dropdown:visible").getByTitle("maintenance", { exact: true }).click();
    const jobs = page.getByTestId("job-table");
    await expect(jobs.getByText("maintenance").first()).toBeVisible({ timeout: 30_000 });
    // The chart of jobs by name is drawn (its chunk loaded on this page).
    await expect(page.locator(".recharts-surface").first()).toBeVisible();
  });

  // Filtered by state: only succeeded jobs are listed.
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.getByTestId("job-filter-state").click();
  await page.locator(".ant-select-dropdown").getByText(zh("monitor.jobs.state.succeeded"), { exact: true }).click();
  const table = page.getByTestId("job-table");
  await expect
    .poll(async () => [...new Set(await table.locator("tbody .ant-tag").allTextContents())])
    .toEqual([zh("monitor.jobs.state.succeeded")]);
  expect(errors).toEqual([]);
});

test("the storage monitor, the back area's landing page, shows totals, charts, libraries and the local volumes", async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  const errors = watchConsoleErrors(page);
  await atEachSize(page, testInfo, "/backend", "monitor-storage", async () => {
    await expect(page).toHaveURL(/\/backend\/monitor\/storage$/);
    await expect(page.getByTestId("storage-total")).toContainText(zh("monitor.storage.total"), { timeout: 30_000 });
    for (const part of ["original", "rendition", "version"] as const)
      await expect(page.getByTestId(`storage-part-${part}`)).toContainText(zh(`monitor.storage.part.${part}`));
    // Sizes in KB, MB or GB (spec section 9); the data directory's volume with its free space.
    await expect(page.getByTestId("storage-total")).toContainText(/\d+(\.\d+)? (KB|MB|GB)/);
    await expect(page.getByTestId("storage-volumes").getByText("data", { exact: true })).toBeVisible();
    // The charts are drawn, or (before any story is stored) say so instead of drawing empty axes.
    await expect(page.locator(".recharts-surface, .ant-empty").first()).toBeVisible({ timeout: 30_000 });
  });
  expect(errors).toEqual([]);
});

test("the storage monitor's integrity check reads every original back, with progress, and finds them intact", async ({
  page,
}, testInfo) => {
  // Every original the journeys before stored is read whole: the bound grows with a busy machine, not the test.
  test.setTimeout(600_000);
  const errors = watchConsoleErrors(page);
  await page.setViewportSize({ width: 1366, height: 900 });
  await openApp(page, "/manage/monitor/storage");
  // The maintenance job ran when the server's worker started: the sweeper's last report is shown.
  await expect(page.getByTestId("storage-sweeper")).toContainText(zh("monitor.sweeper.scanned"), { timeout: 30_000 });
  // With a row per storage target: the built-in storage, swept.
  await expect(page.getByTestId("storage-sweeper-targets")).toContainText(zh("monitor.sweeper.target.ok"));
  const card = page.getByTestId("integrity-check");
  await card.getByRole("button", { name: zh("monitor.check.start") }).click();
  await expect(card.getByTestId("integrity-check-state")).toHaveText(zh("monitor.check.state.succeeded"), {
    timeout: 540_000,
  });
  const intact = new RegExp(zh("monitor.check.allIntact").replace("{{count}}", "\\d+"));
  await expect(card.getByTestId("integrity-check-result")).toHaveText(intact);
  await expect(card.getByRole("progressbar")).toHaveAttribute("aria-valuenow", "100");
  await expect(card.getByTestId("integrity-check-counts")).toContainText(/(\d+) \/ \1/);
  // The card reads on a phone.
  await page.setViewportSize({ width: 390, height: 844 });
  await card.scrollIntoViewIfNeeded();
  await expectNoHorizontalOverflow(page);
  await snapshot(page, testInfo, "mobile-integrity-check");
  expect(errors).toEqual([]);
});
