import { type BrowserContext, expect, type Page, type Route, test } from "@playwright/test";
import { signIn, zh } from "./helpers.js";

/**
 * Spec section 4, step 6, when two pages of one browser share a session: the
 * silent refresh runs under a Web Lock, so while one page redeems the rotating
 * refresh token the other waits. That wait must end — with a session or with
 * the session ended (tokens removed, 'Unauthorized', reload into sign-in) —
 * and never leave the page on its loading spinner.
 */

const REFRESH = "**/uuas/api/oauth/token";

/**
 * Makes the stored access token expired as the page's next document starts,
 * before any of its scripts: the current document never sees it, so its own
 * calls cannot start the refresh (or be cut off by the reload mid-refresh).
 */
async function expireAccessTokenOnNextLoad(page: Page): Promise<void> {
  await page.addInitScript(() => {
    if (sessionStorage.getItem("e2e-expired-once")) return;
    sessionStorage.setItem("e2e-expired-once", "1");
    localStorage.setItem("pro__expiry_time", JSON.stringify({ value: String(Date.now() - 1_000), expire: null }));
  });
}

/** Holds the next refresh grant sent from the context; `held` resolves once the browser has sent it. */
async function holdNextRefresh(context: BrowserContext): Promise<{ held: Promise<Route> }> {
  let held!: (route: Route) => void;
  const heldRoute = new Promise<Route>((resolve) => {
    held = resolve;
  });
  let holding = true;
  await context.route(REFRESH, async (route) => {
    const request = route.request();
    const form = new URLSearchParams(request.postDataBuffer()?.toString("utf8") ?? "");
    if (holding && form.get("grant_type") === "refresh_token") {
      holding = false;
      held(route);
    } else await route.continue();
  });
  return { held: heldRoute };
}

/** Whether a page is queued for the refresh lock that another page holds. */
async function waitsForRefreshLock(page: Page): Promise<boolean> {
  return page.evaluate(async () => {
    const state = await navigator.locks.query();
    return (state.pending ?? []).some((lock) => lock.name === "dams-token-refresh");
  });
}

/**
 * The first page refreshes and its refresh is held at the token endpoint; a
 * second page then opens the story list and queues behind it for the lock.
 */
async function secondPageQueuedBehindARefresh(page: Page): Promise<{ other: Page; held: Route }> {
  await signIn(page);
  const heldRefresh = await holdNextRefresh(page.context());
  await expireAccessTokenOnNextLoad(page);
  await page.reload({ waitUntil: "commit" });
  const held = await heldRefresh.held;
  const other = await page.context().newPage();
  await other.goto("/story/list", { waitUntil: "commit" });
  await expect.poll(() => waitsForRefreshLock(other)).toBe(true);
  await expect(other.getByText(zh("app.loading"))).toBeVisible();
  return { other, held };
}

/** Spec section 8: the session ends with 'Unauthorized / Authorization verification failed', then a reload. */
async function expectSessionEnded(page: Page): Promise<void> {
  await expect(page.getByText(zh("error.unauthorized.description"))).toBeVisible({ timeout: 30_000 });
}

/**
 * After the reload the page starts a sign-in; the sign-in server still knows
 * the browser, so it comes back with a new session onto the story list.
 */
async function expectSignedInAgainOnStoryList(page: Page): Promise<void> {
  await expect(page.getByTestId("user-menu")).toBeVisible({ timeout: 30_000 });
  await expect(page).toHaveURL(/\/story\/list$/);
  await expect(page.getByText(zh("app.loading"))).toHaveCount(0);
}

test.describe("session race", () => {
  test("a page waiting for another page's refresh goes to sign-in when the session was signed out meanwhile", async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const { other, held } = await secondPageQueuedBehindARefresh(page);

    // Signed out elsewhere (a third tab's logout removes the shared tokens), then the held refresh is refused.
    await page.evaluate(() => {
      for (const key of ["Access-Token", "refresh_token", "expires_in", "expiry_time"]) {
        localStorage.removeItem(`pro__${key}`);
      }
    });
    await held.fulfill({
      status: 400,
      contentType: "application/json",
      body: JSON.stringify({ error: "invalid_grant", error_description: "grant request is invalid" }),
    });

    // Both pages find no tokens left: each ends its session and reloads into a sign-in, which the
    // sign-in server, still knowing the browser, answers with a new session.
    await expectSessionEnded(other);
    await expectSignedInAgainOnStoryList(other);
    await expect(page.getByTestId("user-menu")).toBeVisible({ timeout: 30_000 });
  });

  test("a page waiting for another page's refresh that never answers gives up and ends the session", async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const { other, held } = await secondPageQueuedBehindARefresh(page);

    // The refresh the first page runs never answers; the second page stops waiting for it.
    await expectSessionEnded(other);
    await held.abort().catch(() => undefined);
    await expectSignedInAgainOnStoryList(other);
  });
});
