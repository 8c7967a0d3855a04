import { expect, test } from "@playwright/test";
import { en, openApp, openPublic, snapshot, titleOf, watchConsoleErrors, zh } from "./helpers.js";

test.describe("fixed routes of spec section 2", () => {
  const redirects: [string, RegExp][] = [
    ["/", /\/frontend\/search$/],
    ["/frontend", /\/frontend\/search$/],
    ["/backend", /\/backend\/monitor\/storage$/],
    ["/test", /\/test\/home$/],
    ["/no/such/page", /\/404$/],
    ["/manage/setting", /\/manage\/setting\/category$/],
    ["/share", /\/share\/storyPreview$/],
  ];
  for (const [from, to] of redirects) {
    test(`${from} leads to ${to.source}`, async ({ page }) => {
      await openApp(page, from);
      await expect(page).toHaveURL(to);
    });
  }

  // Exempt from login: no session needed.
  const publicRedirects: [string, RegExp][] = [
    ["/share/storyPreview", /\/share\/storyPreview$/],
    // /user → /user/login, which then asks the sign-in server and comes back as its login page.
    ["/user", /\/user\/login(\?uid=[\w-]+)?$/],
    ["/user/register", /\/user\/register$/],
  ];
  for (const [from, to] of publicRedirects) {
    test(`${from} leads to ${to.source} without a session`, async ({ page }) => {
      await openPublic(page, from);
      await expect(page).toHaveURL(to);
    });
  }

  test("every page title is '{route title} - platform title'", async ({ page }) => {
    const pages: [string, string][] = [
      ["/", "menu.search"],
      ["/upload/image", "menu.upload.image"],
      ["/manage/setting/tag", "menu.manage.setting.tag"],
      ["/backend", "menu.manage.monitor.storage"],
    ];
    for (const [path, key] of pages) {
      await openApp(page, path);
      await expect(page).toHaveTitle(titleOf(zh, key));
    }
  });

  test("the search page reads fulltext, and the header search box drives it", async ({ page }, testInfo) => {
    const errors = watchConsoleErrors(page);
    await openApp(page, `/frontend/search?fulltext=${encodeURIComponent("台风")}`);
    await expect(page.getByRole("searchbox", { name: zh("search.placeholder"), exact: true })).toHaveValue("台风");
    const headerSearch = page.getByRole("searchbox", { name: zh("layout.search.placeholder"), exact: true });
    await headerSearch.fill("两会 发布会");
    await headerSearch.press("Enter");
    await expect(page).toHaveURL(/\/frontend\/search\?fulltext=%E4%B8%A4%E4%BC%9A(\+|%20)%E5%8F%91%E5%B8%83%E4%BC%9A$/);
    await expect(page.getByRole("searchbox", { name: zh("search.placeholder"), exact: true })).toHaveValue(
      "两会 发布会",
    );
    await snapshot(page, testInfo, "search");
    expect(errors).toEqual([]);
  });

  test("hidden /source pages render without the menus' chrome", async ({ page }) => {
    await openPublic(page, "/source/editimg");
    await expect(page).toHaveTitle(titleOf(zh, "route.source.editimg"));
    await expect(page.locator(".dams-layout")).toHaveCount(0);
  });
});

test.describe("error pages", () => {
  for (const status of [403, 404, 500] as const) {
    test(`${status} shows its text and goes back home`, async ({ page }, testInfo) => {
      await openApp(page, `/${status}`);
      await expect(page.getByText(zh(`exception.${status}`))).toBeVisible();
      await snapshot(page, testInfo, `exception-${status}`);
      await page.getByRole("button", { name: zh("exception.backHome") }).click();
      await expect(page).toHaveURL(/\/frontend(\/search)?$/);
    });
  }

  test("in English the 404 page says the spec's words", async ({ page }) => {
    await page.addInitScript(() => localStorage.setItem("pro__lang", "en-US"));
    await openApp(page, "/nowhere-at-all");
    await expect(page).toHaveURL(/\/404$/);
    await expect(page.getByText("Sorry, the page does not exist or is still in development")).toBeVisible();
    await expect(page.getByRole("button", { name: en("exception.backHome") })).toBeVisible();
  });
});

test.describe("the server around the app", () => {
  test("is ready, and sends a CSP with the app", async ({ request }) => {
    expect((await request.get("/readyz")).status()).toBe(200);
    const index = await request.get("/frontend/search");
    expect(index.headers()["content-security-policy"]).toContain("script-src 'self'");
    expect(index.headers()["x-content-type-options"]).toBe("nosniff");
    const missing = await request.get("/dams/api/v1/nothing-here");
    expect(missing.status()).toBe(404);
    expect(await missing.json()).toMatchObject({ code: 404, msg: "request error, resource not found" });
  });
});
