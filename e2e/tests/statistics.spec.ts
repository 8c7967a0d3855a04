import fs from "node:fs";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import monitorZh from "../../web/src/locales/monitor/zh-CN.js";
import { expectNoHorizontalOverflow, openApp, snapshot, watchConsoleErrors, zh } from "./helpers.js";
import { API, commitAndProcess, PHOTOS, seedingToken, upload } from "./seed.js";

const monitor = (key: keyof typeof monitorZh): string => monitorZh[key];
const SIZES = [
  { name: "desktop", width: 1366, height: 900 },
  { name: "mobile", width: 390, height: 844 },
];

test("the data monitor and the usage statistics count a story uploaded, committed and downloaded; the usage exports", async ({
  page,
}, testInfo) => {
  test.setTimeout(240_000);
  const errors = watchConsoleErrors(page);
  const run = Date.now().toString(36);
  const title = `统计 journey ${run}`;
  const source = `统计来源 ${run}`;

  // A photo of our own: uploaded with a unique title and source, committed, then downloaded once.
  await openApp(page, "/manage/monitor/data");
  const token = await seedingToken(page, "statistics");
  const photo = path.join(PHOTOS, "Canon_DIGITAL_IXUS_400.jpg");
  const story = await upload(page.request, token, photo, {
    libraryId: "product",
    title,
    source,
    authors: JSON.stringify([`作者 ${run}`]),
  });
  await commitAndProcess(page.request, token, [story]);
  const downloaded = await page.request.get(`${API}/workflow-story-download/${story.libraryId}/${story.storyId}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(downloaded.status()).toBe(200);
  // Opened once in the viewer's read, and a search that finds nothing (both counted and written a few seconds later).
  const auth = { authorization: `Bearer ${token}` };
  expect(
    (await page.request.get(`${API}/stories/${story.libraryId}/${story.storyId}`, { headers: auth })).status(),
  ).toBe(200);
  const missed = `无此稿件 ${run}`;
  const searched = await page.request.get(`${API}/stories?fulltext=${encodeURIComponent(missed)}`, { headers: auth });
  expect(((await searched.json()) as { data: { totalElements: number } }).data.totalElements).toBe(0);

  // The data monitor: today has at least our upload and commit; every chart drawn, at both widths.
  for (const size of SIZES) {
    await page.setViewportSize({ width: size.width, height: size.height });
    await openApp(page, "/manage/monitor/data");
    await expect(page.getByTestId("data-total")).toContainText(monitor("monitor.data.total"), { timeout: 30_000 });
    await expect(page.getByTestId("data-total")).toContainText(/[1-9]\d*/);
    await expect(page.locator(".recharts-surface").first()).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId("data-top-sources").locator(".recharts-surface")).toBeVisible();
    await expectNoHorizontalOverflow(page);
    await snapshot(page, testInfo, `${size.name}-monitor-data`);
  }
  const figures = await page.request.get(`${API}/monitor/data?days=7`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const today = ((await figures.json()) as { data: { perDay: { uploads: number; commits: number }[] } }).data.perDay.at(
    -1,
  )!;
  expect(today.uploads).toBeGreaterThanOrEqual(1);
  expect(today.commits).toBeGreaterThanOrEqual(1);

  // Usage statistics: by source, our source has one view and one download; the CSV export holds that row.
  const period = `from=${new Date(Date.now() - 86_400_000).toISOString()}&to=${new Date(Date.now() + 86_400_000).toISOString()}`;
  await expect
    .poll(
      async () => {
        const answer = await page.request.get(`${API}/statistics/searches?${period}`, { headers: auth });
        return ((await answer.json()) as { data: { query: string }[] }).data.some((row) => row.query === missed);
      },
      { timeout: 60_000 },
    )
    .toBe(true);
  for (const size of SIZES) {
    await page.setViewportSize({ width: size.width, height: size.height });
    await openApp(page, "/backend/setting/usedStatistic");
    await expect(page.getByTestId("usage-count-photo")).toContainText(/\d/, { timeout: 30_000 });
    await page.getByTestId("usage-by").getByText(monitor("monitor.usage.by.source"), { exact: true }).click();
    await expect(page.getByTestId("usage-table").locator("thead")).toContainText(monitor("monitor.usage.by.source"));
    await expect(page.getByTestId("usage-searches")).toContainText(missed, { timeout: 30_000 });
    await expectNoHorizontalOverflow(page);
    await snapshot(page, testInfo, `${size.name}-usage-statistics`);
  }
  await page.setViewportSize({ width: 1366, height: 900 });
  const [csv] = await Promise.all([page.waitForEvent("download"), page.getByTestId("usage-export-csv").click()]);
  expect(csv.suggestedFilename()).toMatch(/\.csv$/);
  const text = fs.readFileSync(await csv.path(), "utf8");
  const row = text.split(/\r?\n/).find((line) => line.includes(source));
  expect(row, text.slice(0, 500)).toBeDefined();
  // Source, views, downloads, publishes, shares: viewed (our read, and the seeding's reads while it waited for
  // processing), one download, nothing else.
  const [views, ...used] = row!.split(",").slice(-4);
  expect(Number(views)).toBeGreaterThanOrEqual(1);
  expect(used).toEqual(["1", "0", "0"]);
  const [xlsx] = await Promise.all([page.waitForEvent("download"), page.getByTestId("usage-export").click()]);
  expect(xlsx.suggestedFilename()).toMatch(/\.xlsx$/);
  expect(fs.statSync(await xlsx.path()).size).toBeGreaterThan(0);
  // The searches with no results export as CSV with our search in it.
  const [misses] = await Promise.all([
    page.waitForEvent("download"),
    page.getByTestId("usage-searches-export-csv").click(),
  ]);
  expect(fs.readFileSync(await misses.path(), "utf8")).toContain(missed);
  expect(errors).toEqual([]);
});

/** Picks a role by its name in the page's role picker (typed: other journeys add roles). */
async function chooseRole(page: Page, name: string) {
  const picker = page.getByTestId("property-role");
  await picker.click();
  await picker.locator("input").fill(name);
  await page.locator(".ant-select-dropdown:visible .ant-select-item-option").getByText(name, { exact: true }).click();
  await expect(picker).toContainText(name);
}

test("field-level access: an administrator hides a property from the viewer role, and it stays hidden", async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  const errors = watchConsoleErrors(page);
  const property = `e2eFee${Date.now().toString(36)}`;
  await page.setViewportSize({ width: 1366, height: 900 });
  await openApp(page, "/manage/userrole/property");
  const role = page.getByTestId("property-role");
  await expect(role).toBeVisible({ timeout: 30_000 });
  await chooseRole(page, "Viewer");
  await page.getByTestId("property-add-name").fill(property);
  await page.getByTestId("property-add").click();
  await page.getByTestId(`property-visible-${property}`).click();
  await expect(page.getByTestId(`property-editable-${property}`)).not.toBeChecked();
  await page.getByTestId("property-save").click();
  await expect(page.getByText(zh("admin.propertyAccess.saved"))).toBeVisible();

  // Read again: the rule is the server's now, at both widths.
  for (const size of SIZES) {
    await page.setViewportSize({ width: size.width, height: size.height });
    await openApp(page, "/manage/userrole/property");
    await chooseRole(page, "Viewer");
    await expect(page.getByTestId(`property-visible-${property}`)).not.toBeChecked({ timeout: 30_000 });
    await expect(page.getByTestId(`property-editable-${property}`)).not.toBeChecked();
    await expectNoHorizontalOverflow(page);
    await snapshot(page, testInfo, `${size.name}-userrole-property`);
  }
  expect(errors).toEqual([]);
});
