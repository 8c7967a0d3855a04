import path from "node:path";
import { expect, type Locator, type Page, test } from "@playwright/test";
import { expectNoHorizontalOverflow, openApp, signIn, snapshot } from "./helpers.js";
import { API, accessToken, commitAndProcess, PHOTOS, type Seeded, upload } from "./seed.js";

/**
 * Every front-area page and the main back-area pages at a desktop width and
 * at a phone's (spec section 2: mobile up to 576 px): nothing wider than the
 * window, the page's key element visible, and a full-page screenshot kept
 * under test-results for a person to look at.
 */
const WIDTHS = [
  { name: "desktop", width: 1366, height: 900 },
  { name: "mobile", width: 390, height: 844 },
] as const;

interface Seed {
  run: string;
  folderId: string;
  photo: Seeded;
}

let seed: Seed;

test.beforeAll(async ({ browser }) => {
  test.setTimeout(180_000);
  const page = await browser.newPage();
  await signIn(page);
  const token = await accessToken(page);
  const run = `shot${String(Date.now()).slice(-6)}`;
  const folder = await page.request.post(`${API}/libraries/product/folders`, {
    headers: { authorization: `Bearer ${token}` },
    data: { name: `e2e 版面 ${run}` },
  });
  expect(folder.status(), await folder.text()).toBe(200);
  const folderId = ((await folder.json()) as { data: { id: string } }).data.id;
  const photo = await upload(page.request, token, path.join(PHOTOS, "Canon_40D.jpg"), {
    libraryId: "product",
    folderId,
    title: `台风 登陆 新闻发布会现场 ${run}`,
    caption: "A long caption that should wrap rather than widen the page on a phone",
  });
  const second = await upload(page.request, token, path.join(PHOTOS, "Nikon_D70.jpg"), {
    libraryId: "product",
    title: `两会 ${run}`,
  });
  await commitAndProcess(page.request, token, [photo, second]);
  seed = { run, folderId, photo };
  await page.close();
});

interface Shot {
  name: string;
  path: () => string;
  /** The element that says the page rendered its content. */
  key: (page: Page) => Locator;
  /** A page shown without the menus' chrome (hidden /source pages): no user menu to expect. */
  chromeless?: boolean;
}

const storyCard = (page: Page) => page.locator(`[data-story="product/${seed.photo.storyId}"]`);
const table = (page: Page) => page.locator(".ant-table").first();

const SHOTS: Shot[] = [
  { name: "search", path: () => `/frontend/search?fulltext=${seed.run}`, key: storyCard },
  { name: "library-folder", path: () => `/frontend/product/${seed.folderId}`, key: storyCard },
  {
    name: "viewer",
    path: () => `/frontend/search?fulltext=${seed.run}&story=product/${seed.photo.storyId}`,
    key: (page) => page.locator(".ant-drawer-content").getByTestId("story-metadata"),
  },
  { name: "upload-image", path: () => "/upload/image", key: (page) => page.locator(".uppy-Dashboard").first() },
  { name: "upload-download", path: () => "/upload/download", key: (page) => page.locator("form").first() },
  { name: "upload-favorite", path: () => "/upload/favorite", key: (page) => page.getByTestId("stories-total") },
  { name: "upload-my", path: () => "/upload/my", key: (page) => page.getByTestId("stories-total") },
  // A hidden /source page: no menus' chrome, so no user menu (spec section 2).
  {
    name: "net-disk",
    path: () => "/source/ismpnetdisk",
    key: (page) => page.getByTestId("disk-table"),
    chromeless: true,
  },
  { name: "share-netdisk", path: () => "/share/netdisk", key: (page) => page.getByTestId("share-netdisk") },
  { name: "story-list", path: () => "/story/list", key: table },
  { name: "halfproduct-list", path: () => "/halfproduct/list", key: table },
  { name: "back-monitor-storage", path: () => "/backend/monitor/storage", key: (page) => page.locator("main") },
  { name: "back-monitor-task", path: () => "/manage/monitor/task", key: (page) => page.getByTestId("job-table") },
  { name: "back-monitor-data", path: () => "/manage/monitor/data", key: (page) => page.getByTestId("data-total") },
  {
    name: "back-used-statistic",
    path: () => "/backend/setting/usedStatistic",
    key: (page) => page.getByTestId("usage-table"),
  },
  {
    name: "back-property-access",
    path: () => "/manage/userrole/property",
    key: (page) => page.getByTestId("property-table"),
  },
  { name: "back-users", path: () => "/manage/userrole/user", key: table },
  { name: "back-roles", path: () => "/manage/userrole/role", key: table },
  { name: "back-access-control", path: () => "/manage/access/control", key: (page) => page.locator("main") },
  { name: "back-tags", path: () => "/manage/setting/tag", key: table },
  { name: "back-watermarks", path: () => "/manage/setting/watermark", key: table },
  { name: "back-download-presets", path: () => "/manage/setting/download", key: table },
  { name: "back-templates", path: () => "/manage/setting/template", key: table },
  { name: "back-channels", path: () => "/manage/setting/tunnel", key: table },
  { name: "back-story-properties", path: () => "/manage/setting/storyProperties", key: (page) => page.locator("main") },
];

for (const size of WIDTHS) {
  test(`every page at ${size.width}×${size.height} (${size.name}): no horizontal overflow, content visible`, async ({
    page,
  }, testInfo) => {
    // A bound that grows with the pages visited (each is given up to a minute to show its key element):
    // at load 25 on the shared two cores, 240 s for the whole list ran out on the desktop pass.
    test.setTimeout(SHOTS.length * 30_000);
    await page.setViewportSize({ width: size.width, height: size.height });
    for (const shot of SHOTS) {
      await openApp(page, shot.path());
      await expect(shot.key(page), shot.name).toBeVisible({ timeout: 60_000 });
      if (!shot.chromeless) await expect(page.getByTestId("user-menu")).toBeVisible();
      // Let images and fonts settle before measuring.
      await page.waitForLoadState("networkidle");
      await expectNoHorizontalOverflow(page, 1);
      await snapshot(page, testInfo, `${size.name}-${shot.name}`);
    }
    // The phone's menu is behind a toggle in the header.
    if (size.name === "mobile") await expect(page.locator(".dams-menu-toggle")).toBeVisible();
  });
}
