import { type BrowserContext, expect, type Page, type Route, test } from "@playwright/test";
import { signIn, watchConsoleErrors, zh } from "./helpers.js";

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

/**
 * Lets the next refresh grant reach the token endpoint, which redeems (and so
 * rotates) the refresh token, but never hands its answer to the page: the
 * page looks as if it left while the answer was on its way. `redeemed`
 * resolves with the endpoint's status once the provider has answered;
 * `sentRefreshTokens` lists the refresh tokens of every grant sent from then on.
 */
async function redeemNextRefreshWithoutAnswer(
  context: BrowserContext,
): Promise<{ redeemed: Promise<number>; sentRefreshTokens: string[] }> {
  let redeemed!: (status: number) => void;
  const answered = new Promise<number>((resolve) => {
    redeemed = resolve;
  });
  const sentRefreshTokens: string[] = [];
  let holding = true;
  await context.route(REFRESH, async (route) => {
    const form = new URLSearchParams(route.request().postDataBuffer()?.toString("utf8") ?? "");
    if (form.get("grant_type") === "refresh_token") sentRefreshTokens.push(form.get("refresh_token") ?? "");
    if (holding && form.get("grant_type") === "refresh_token") {
      holding = false;
      const response = await route.fetch();
      redeemed(response.status());
    } else await route.continue();
  });
  return { redeemed: answered, sentRefreshTokens };
}

/** Every notification (antd `notification`) the context's pages show, by its text, across reloads. */
async function watchNotifications(context: BrowserContext): Promise<string[]> {
  const shown: string[] = [];
  await context.exposeBinding("__damsNotification", (_source, text: string) => {
    shown.push(text);
  });
  await context.addInitScript(() => {
    const report = (window as unknown as { __damsNotification: (text: string) => void }).__damsNotification;
    const reported = new WeakSet<Element>();
    new MutationObserver(() => {
      for (const notice of document.querySelectorAll(".ant-notification-notice")) {
        const text = notice.textContent ?? "";
        if (reported.has(notice) || !text) continue;
        reported.add(notice);
        report(text);
      }
    }).observe(document, { childList: true, subtree: true, characterData: true });
  });
  return shown;
}

const storedRefreshToken = (page: Page) =>
  page.evaluate(() => {
    const raw = localStorage.getItem("pro__refresh_token");
    return raw ? (JSON.parse(raw) as { value: string }).value : null;
  });

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

  test("a reload while the refresh is on the wire comes back signed in on the same page, without 'Unauthorized'", async ({
    page,
  }) => {
    test.setTimeout(180_000);
    const errors = watchConsoleErrors(page);
    const notifications = await watchNotifications(page.context());
    await signIn(page);
    const address = "/frontend/search?fulltext=session-race";
    await page.goto(address, { waitUntil: "networkidle" });
    const before = await storedRefreshToken(page);
    expect(before).not.toBeNull();

    // The next document refreshes at once; the provider rotates the refresh token, its answer never arrives.
    const { redeemed, sentRefreshTokens } = await redeemNextRefreshWithoutAnswer(page.context());
    await expireAccessTokenOnNextLoad(page);
    await page.reload({ waitUntil: "commit" });
    expect(await redeemed).toBe(200);
    // The page leaves before the answer (a reload, a link followed): the token it stored is consumed.
    await page.reload({ waitUntil: "commit" });

    // The next page does not redeem the consumed token (which the provider would take for theft, 400
    // invalid_grant and 'Unauthorized'): it signs in again, which the provider's session answers at once.
    await expect(page.getByTestId("user-menu")).toBeVisible({ timeout: 60_000 });
    await expect(page).toHaveURL((url) => url.pathname + url.search === address);
    await expect(page.getByText(zh("app.loading"))).toHaveCount(0);
    const after = await storedRefreshToken(page);
    expect(after).not.toBeNull();
    expect(after).not.toBe(before);
    expect(sentRefreshTokens).toEqual([before]);
    expect(await page.evaluate(() => localStorage.getItem("pro__refresh_sent"))).toBeNull();
    expect(notifications).toEqual([]);
    expect(errors).toEqual([]);
  });
});
