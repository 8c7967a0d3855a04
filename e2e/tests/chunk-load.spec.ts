import path from "node:path";
import { expect, test } from "@playwright/test";
import { expectToast, signIn, zh } from "./helpers.js";
import { accessToken, commitAndProcess, PHOTOS, upload } from "./seed.js";

const chunkFailed = (name: string) => zh("error.chunkLoad").replace("{{name}}", name);

/**
 * Spec section 8, "Chunk load failure": with the network refusing the app's
 * JavaScript after the first load, a lazy part (the story viewer) fails with
 * a toast and leaves the page usable, and a lazy page fails in its place.
 */
test("a chunk that cannot load says 'Loading chunk … failed', for a lazy part and for a page", async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1366, height: 900 });
  await signIn(page);
  const token = await accessToken(page);
  const run = `chunk${String(Date.now()).slice(-6)}`;
  const story = await upload(page.request, token, path.join(PHOTOS, "Canon_40D.jpg"), {
    libraryId: "product",
    title: `港口 ${run}`,
  });
  await commitAndProcess(page.request, token, [story]);

  await page.goto(`/frontend/search?fulltext=${run}`, { waitUntil: "networkidle" });
  const card = page.locator(`[data-story="product/${story.storyId}"]`);
  await expect(card).toBeVisible();

  // From now on no JavaScript file loads.
  await page.route(/\/assets\/.*\.js$/, (route) => route.abort());

  await card.getByRole("button").first().click();
  await expectToast(page, chunkFailed("story-viewer"));
  // The list is still there and still answers.
  await expect(card).toBeVisible();
  await card.getByRole("checkbox").check();
  await expect(page.getByTestId("selection-bar")).toBeVisible();

  // A page reached through the menu fails in its place, under the layout.
  await page.evaluate(() => {
    window.history.pushState({}, "", "/upload/favorite");
    window.dispatchEvent(new PopStateEvent("popstate"));
  });
  await expect(page.getByRole("alert").getByText(chunkFailed("upload/favorite"))).toBeVisible();
  await expect(page.getByTestId("user-menu")).toBeVisible();
});

/** The language pack itself failing at start-up: no strings are loaded yet, and the message is still the page's language. */
test("a language pack that cannot load says so in its own language", async ({ page }) => {
  await page.route(/\/assets\/pack-[^/]*\.js$/, (route) => route.abort());
  await page.goto("/user/login");
  await expect(page.locator("#root")).toHaveText(chunkFailed("locale-zh-CN"));
});
