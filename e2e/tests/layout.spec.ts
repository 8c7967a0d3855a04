import { expect, type Page, test } from "@playwright/test";
import { chooseMenuItem, en, openApp, snapshot, watchConsoleErrors, zh } from "./helpers.js";

const tabBar = (page: Page) => page.locator(".dams-tab-bar");
// The tabs themselves, not their close buttons (which antd also gives role "tab").
const tabs = (page: Page) => tabBar(page).locator(".ant-tabs-nav-list > .ant-tabs-tab");
const activeTab = (page: Page) => tabBar(page).locator(".ant-tabs-nav-list > .ant-tabs-tab-active");

async function tabAction(page: Page, action: "close" | "closeRight" | "closeLeft" | "closeAll") {
  await chooseMenuItem(page, page.getByTestId("tab-actions"), zh(`layout.tabs.${action}`));
}

test.describe("menus", () => {
  test("the front area has a top menu of the user menu; a click opens the page in a tab", async ({
    page,
  }, testInfo) => {
    const errors = watchConsoleErrors(page);
    await page.setViewportSize({ width: 1440, height: 900 });
    await openApp(page, "/frontend/search");
    const topMenu = page.locator(".dams-header .ant-menu-horizontal").first();
    await expect(topMenu).toBeVisible();
    for (const key of ["menu.search", "menu.upload", "menu.story", "menu.halfproduct", "menu.share"]) {
      await expect(topMenu.getByText(zh(key), { exact: true })).toBeVisible();
    }
    await topMenu.getByText(zh("menu.upload"), { exact: true }).hover();
    await page.getByRole("menuitem", { name: zh("menu.upload.video") }).click();
    await expect(page).toHaveURL(/\/upload\/video$/);
    await expect(tabs(page)).toHaveCount(2);
    await snapshot(page, testInfo, "front-area");
    expect(errors).toEqual([]);
  });

  test("the back area has a side menu of the admin menu", async ({ page }, testInfo) => {
    const errors = watchConsoleErrors(page);
    await page.setViewportSize({ width: 1440, height: 900 });
    await openApp(page, "/backend");
    const sider = page.locator(".dams-sider");
    await expect(sider).toBeVisible();
    for (const key of ["menu.manage.monitor", "menu.manage.userrole", "menu.manage.setting"]) {
      await expect(sider.getByText(zh(key), { exact: true })).toBeVisible();
    }
    await sider.getByText(zh("menu.manage.setting"), { exact: true }).click();
    await sider.getByText(zh("menu.manage.setting.watermark"), { exact: true }).click();
    await expect(page).toHaveURL(/\/manage\/setting\/watermark$/);
    await expect(page.getByText(zh("menu.manage.setting.watermark")).first()).toBeVisible();
    await snapshot(page, testInfo, "back-area");
    expect(errors).toEqual([]);
  });
});

test.describe("multi-tab bar", () => {
  test("close this, right, left and all, with the two messages", async ({ page }) => {
    // Six full page loads of the app: about 20 s alone, over the default 60 s when the machine is busy.
    test.slow();
    await page.setViewportSize({ width: 1440, height: 900 });
    const visits: [string, string][] = [
      ["/upload/image", "menu.upload.image"],
      ["/upload/video", "menu.upload.video"],
      ["/upload/audio", "menu.upload.audio"],
      ["/story/list", "menu.story.list"],
    ];
    for (const [path, key] of visits) {
      await openApp(page, path);
      // The tab shows once the bar has recorded the visit; only then is the next reload safe.
      await expect(activeTab(page)).toHaveText(zh(key));
    }
    // Signing in landed on the search page first.
    await expect(tabs(page)).toHaveText([
      zh("menu.search"),
      zh("menu.upload.image"),
      zh("menu.upload.video"),
      zh("menu.upload.audio"),
      zh("menu.story.list"),
    ]);

    // The last tab is active: nothing on its right.
    await tabAction(page, "closeRight");
    await expect(page.getByText(zh("layout.tabs.noRight"))).toBeVisible();

    await tabs(page)
      .filter({ hasText: zh("menu.upload.video") })
      .click();
    await expect(page).toHaveURL(/\/upload\/video$/);
    await tabAction(page, "closeLeft");
    await expect(tabs(page)).toHaveText([zh("menu.upload.video"), zh("menu.upload.audio"), zh("menu.story.list")]);
    await tabAction(page, "closeLeft");
    await expect(page.getByText(zh("layout.tabs.noLeft"))).toBeVisible();

    await tabAction(page, "closeRight");
    await expect(tabs(page)).toHaveText([zh("menu.upload.video")]);

    await openApp(page, "/upload/my");
    await expect(activeTab(page)).toHaveText(zh("menu.upload.my"));
    await tabAction(page, "close");
    await expect(page).toHaveURL(/\/upload\/video$/);
    await expect(tabs(page)).toHaveText([zh("menu.upload.video")]);

    await openApp(page, "/upload/favorite");
    await expect(activeTab(page)).toHaveText(zh("menu.upload.favorite"));
    await tabAction(page, "closeAll");
    await expect(page).toHaveURL(/\/frontend\/search$/);
    await expect(tabs(page)).toHaveText([zh("menu.search")]);
  });
});

test.describe("device classes", () => {
  const siderWidth = async (page: Page) => (await page.locator(".dams-sider").boundingBox())?.width;

  test("desktop at 1440 px: the back area's sidebar is open at 256 px", async ({ page }, testInfo) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await openApp(page, "/backend");
    await expect.poll(() => siderWidth(page)).toBe(256);
    await snapshot(page, testInfo, "back-1440");
  });

  test("tablet at 800 px: the sidebar is collapsed to 80 px", async ({ page }, testInfo) => {
    await page.setViewportSize({ width: 800, height: 900 });
    await openApp(page, "/backend");
    await expect.poll(() => siderWidth(page)).toBe(80);
    await snapshot(page, testInfo, "back-800");
  });

  test("mobile at 375 px: the menu is a drawer behind a toggle", async ({ page }, testInfo) => {
    await page.setViewportSize({ width: 375, height: 812 });
    await openApp(page, "/backend");
    const toggle = page.locator(".dams-menu-toggle");
    await expect(toggle).toBeVisible();
    await snapshot(page, testInfo, "back-375");
    await toggle.click();
    const drawer = page.locator(".ant-drawer-content .dams-sider");
    await expect(drawer).toBeVisible();
    await expect.poll(async () => (await drawer.boundingBox())?.width).toBe(256);
    await expect(drawer.getByText(zh("menu.manage.userrole"), { exact: true })).toBeVisible();
  });
});

test.describe("settings drawer", () => {
  test.use({ permissions: ["clipboard-read", "clipboard-write"] });

  test("a change persists across a reload, and the copy button copies", async ({ page }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await openApp(page, "/frontend/search?settings=1");
    await page.getByTestId("settings-toggle").click();
    const drawer = page.locator(".ant-drawer-content");
    await drawer.getByText(zh("settings.menuTheme.light"), { exact: true }).click();
    await expect
      .poll(() => page.evaluate(() => JSON.parse(localStorage.getItem("pro__Layout-Settings") ?? "{}").menuTheme))
      .toBe("light");

    await page.reload();
    await page.getByTestId("settings-toggle").click();
    await expect(drawer.getByRole("radio", { name: zh("settings.menuTheme.light") })).toBeChecked();

    await drawer.getByTestId("settings-copy").click();
    await expect(page.getByText(zh("settings.copied"))).toBeVisible();
    const copied = JSON.parse(await page.evaluate(() => navigator.clipboard.readText()));
    expect(copied.menuTheme).toBe("light");
  });

  test("is not offered without the flag in a production build", async ({ page }) => {
    await openApp(page, "/frontend/search");
    await expect(page.locator(".dams-layout")).toBeVisible();
    await expect(page.getByTestId("settings-toggle")).toHaveCount(0);
  });
});

test.describe("language", () => {
  test("only the language in use loads; switching fetches the other and changes the page, and it sticks", async ({
    page,
  }) => {
    const errors = watchConsoleErrors(page);
    await page.setViewportSize({ width: 1440, height: 900 });
    await openApp(page, "/frontend/search");
    // Count from a fresh load of the page (signing in loaded other pages before).
    const packs = new Set<string>();
    page.on("response", (response) => {
      if (/\/assets\/pack-[\w-]+\.js$/.test(response.url())) packs.add(response.url());
    });
    await page.reload({ waitUntil: "networkidle" });
    const title = page.locator(".dams-page-title");
    await expect(title).toHaveText(zh("menu.search"));
    expect(packs.size).toBe(1);

    await page.getByTestId("language-switch").hover();
    await page.getByRole("menuitem", { name: zh("layout.lang.en-US") }).click();
    await expect(title).toHaveText(en("menu.search"));
    await expect(page.locator("html")).toHaveAttribute("lang", "en-US");
    await expect(page.getByRole("searchbox", { name: en("layout.search.placeholder"), exact: true })).toBeVisible();
    expect(packs.size).toBe(2);

    await page.reload();
    await expect(title).toHaveText(en("menu.search"));
    expect(errors).toEqual([]);
  });
});
