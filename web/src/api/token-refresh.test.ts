import { describe, expect, it, vi } from "vitest";
import { memoryStorage } from "../test-support";
import {
  clearSession,
  getAccessToken,
  markRefreshSent,
  readRefreshSent,
  readStored,
  storeTokens,
  type TokenSet,
} from "./session";
import {
  REFRESH_LOCK_WAIT_MS,
  REFRESH_MAX_RETRIES,
  REFRESH_RETRY_INTERVAL_MS,
  type RefresherDeps,
  SessionExpiredError,
  TokenRefresher,
} from "./token-refresh";

const NOW = 1_700_000_000_000;

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Storage holding an expired access token and a refresh token. */
function expiredSession() {
  const storage = memoryStorage();
  storeTokens({ access_token: "old", refresh_token: "r1", expires_in: 60 }, storage, NOW - 120_000);
  return storage;
}

/** A refresher that is granted the lock only after another tab did `otherTab` to the shared storage. */
function afterAnotherTab(storage: Storage, refresh: () => Promise<TokenSet>, otherTab: () => void) {
  return new TokenRefresher({
    refresh,
    storage,
    now: () => NOW,
    exclusive: async (task) => {
      otherTab();
      return task();
    },
  });
}

describe("the refresh queue (spec section 4, step 6)", () => {
  it("hands out a fresh token without refreshing, and nothing to a guest", async () => {
    const refresh = vi.fn();
    const storage = memoryStorage();
    const guest = new TokenRefresher({ refresh, storage, now: () => NOW });
    expect(await guest.accessToken()).toBeNull();
    storeTokens({ access_token: "at", refresh_token: "rt", expires_in: 600 }, storage, NOW);
    expect(await guest.accessToken()).toBe("at");
    expect(refresh).not.toHaveBeenCalled();
  });

  it("refreshes an expired token once while concurrent callers wait for it", async () => {
    const storage = expiredSession();
    const answer = deferred<TokenSet>();
    const refresh = vi.fn(() => answer.promise);
    const sleeps: number[] = [];
    const refresher = new TokenRefresher({
      refresh,
      storage,
      now: () => NOW,
      sleep: async (ms) => {
        sleeps.push(ms);
        await Promise.resolve();
      },
    });
    const first = refresher.accessToken();
    const others = [refresher.accessToken(), refresher.accessToken()];
    expect(refresher.refreshing).toBe(true);
    // Let the waiters poll a few times before the answer arrives.
    for (let i = 0; i < 5; i++) await Promise.resolve();
    answer.resolve({ access_token: "new", refresh_token: "r2", expires_in: 600 });
    expect(await first).toBe("new");
    expect(await Promise.all(others)).toEqual(["new", "new"]);
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(refresh).toHaveBeenCalledWith("r1");
    expect(sleeps.every((ms) => ms === REFRESH_RETRY_INTERVAL_MS)).toBe(true);
    expect(getAccessToken(storage, NOW)).toBe("new");
    expect(readStored("refresh_token", storage)).toBe("r2");
    expect(Number(readStored("expiry_time", storage))).toBe(NOW + 600_000);
    expect(refresher.refreshing).toBe(false);
  });

  it("gives up waiting after 30 checks 500 ms apart", async () => {
    const storage = expiredSession();
    const never = deferred<TokenSet>();
    let waited = 0;
    const refresher = new TokenRefresher({
      refresh: () => never.promise,
      storage,
      now: () => NOW,
      sleep: async (ms) => {
        waited += ms;
      },
    });
    void refresher.accessToken().catch(() => undefined);
    const waiter = refresher.accessToken();
    await expect(waiter).rejects.toMatchObject({ reason: "refresh_timeout" });
    expect(REFRESH_MAX_RETRIES).toBe(30);
    expect(waited).toBe(30 * 500);
  });

  /** A refresh that a second caller waits for; `answer` settles its token request. */
  function refreshWithWaiter(offline?: Error) {
    const storage = expiredSession();
    const answer = deferred<TokenSet>();
    const refresher = new TokenRefresher({
      refresh: () => answer.promise,
      storage,
      now: () => NOW,
      sleep: () => Promise.resolve(),
      isTransient: (error) => error === offline,
    });
    return { storage, answer, first: refresher.accessToken(), waiter: refresher.accessToken() };
  }

  it("ends the session when the refresh is refused, for the refresher and the waiters", async () => {
    const { answer, first, waiter } = refreshWithWaiter();
    answer.reject(new Error("invalid_grant"));
    await expect(first).rejects.toBeInstanceOf(SessionExpiredError);
    await expect(first).rejects.toMatchObject({ reason: "refresh_failed" });
    await expect(waiter).rejects.toMatchObject({ reason: "refresh_failed" });
  });

  it("keeps the session for the waiters too when the token endpoint did not answer", async () => {
    const offline = new Error("offline");
    const { storage, answer, first, waiter } = refreshWithWaiter(offline);
    answer.reject(offline);
    await expect(first).rejects.toBe(offline);
    await expect(waiter).rejects.toBe(offline);
    expect(readStored("refresh_token", storage)).toBe("r1");
  });

  it("keeps the session when the token endpoint did not answer", async () => {
    const storage = expiredSession();
    const offline = new Error("offline");
    const refresher = new TokenRefresher({
      refresh: () => Promise.reject(offline),
      storage,
      now: () => NOW,
      isTransient: (error) => error === offline,
    });
    await expect(refresher.accessToken()).rejects.toBe(offline);
    expect(readStored("refresh_token", storage)).toBe("r1");
  });

  it("calls a stale expiry (expired token, no refresh token) the end of the session", async () => {
    const storage = memoryStorage();
    storeTokens({ access_token: "old", expires_in: 60 }, storage, NOW - 120_000);
    const refresher = new TokenRefresher({ refresh: vi.fn(), storage, now: () => NOW });
    await expect(refresher.accessToken()).rejects.toMatchObject({ reason: "stale" });
  });

  it("uses what another tab refreshed while this one waited for the lock", async () => {
    const storage = expiredSession();
    const refresh = vi.fn();
    const refresher = afterAnotherTab(storage, refresh, () =>
      storeTokens({ access_token: "from-other-tab", refresh_token: "r2", expires_in: 600 }, storage, NOW),
    );
    expect(await refresher.accessToken()).toBe("from-other-tab");
    expect(refresh).not.toHaveBeenCalled();
  });

  it("stops waiting for a lock another page never releases, after the waiters' 30 checks", async () => {
    const storage = expiredSession();
    const refresh = vi.fn();
    const deadline = new AbortController();
    const task = vi.fn();
    const refresher = new TokenRefresher({
      refresh,
      storage,
      now: () => NOW,
      lockDeadline: () => deadline.signal,
      // Like navigator.locks.request: the task waits for the lock; an abort withdraws the request.
      exclusive: (queued, signal) =>
        new Promise((_resolve, reject) => {
          task.mockImplementation(queued);
          signal.addEventListener("abort", () => reject(signal.reason));
        }),
    });
    const first = refresher.accessToken();
    expect(refresher.refreshing).toBe(true);
    deadline.abort(new DOMException("lock wait over", "TimeoutError"));
    await expect(first).rejects.toMatchObject({ reason: "refresh_timeout" });
    expect(task).not.toHaveBeenCalled();
    expect(refresh).not.toHaveBeenCalled();
    expect(refresher.refreshing).toBe(false);
    expect(REFRESH_LOCK_WAIT_MS).toBe(REFRESH_MAX_RETRIES * REFRESH_RETRY_INTERVAL_MS);
  });

  it("keeps the lock's own deadline out of a refresh that got the lock", async () => {
    const storage = expiredSession();
    const deadline = new AbortController();
    const answer = deferred<TokenSet>();
    const refresher = new TokenRefresher({
      refresh: () => answer.promise,
      storage,
      now: () => NOW,
      lockDeadline: () => deadline.signal,
      exclusive: (task) => task(),
    });
    const first = refresher.accessToken();
    await Promise.resolve();
    // The deadline passes while the granted refresh runs: the refresh's own answer decides.
    deadline.abort();
    answer.resolve({ access_token: "new", refresh_token: "r2", expires_in: 600 });
    expect(await first).toBe("new");
  });

  it("ends the session when another tab removed the tokens while this one waited for the lock", async () => {
    const storage = expiredSession();
    const refresh = vi.fn();
    const refresher = afterAnotherTab(storage, refresh, () => clearSession(storage));
    await expect(refresher.accessToken()).rejects.toMatchObject({ reason: "stale" });
    expect(refresh).not.toHaveBeenCalled();
  });
});

describe("a refresh whose answer was lost (the page left while it was on the wire)", () => {
  const sentMarker = (storage: Storage) => readRefreshSent(storage);

  function pageRefresher(storage: Storage, refresh: RefresherDeps["refresh"], page: string, extra = {}) {
    return new TokenRefresher({ refresh, storage, now: () => NOW, page, ...extra });
  }

  it("marks the refresh token as sent, by this page, before redeeming it", async () => {
    const storage = expiredSession();
    let markedWhenSent: unknown;
    const refresher = pageRefresher(
      storage,
      async () => {
        markedWhenSent = sentMarker(storage);
        return { access_token: "new", refresh_token: "r2", expires_in: 600 };
      },
      "page-a",
    );
    expect(await refresher.accessToken()).toBe("new");
    expect(markedWhenSent).toEqual({ refreshToken: "r1", page: "page-a" });
  });

  it("removes the mark when the answer arrives, a token set or a refusal", async () => {
    // A rotated refresh token, and the same one handed back by a provider that does not rotate.
    for (const refreshToken of ["r2", "r1"]) {
      const granted = expiredSession();
      const answer = { access_token: "new", refresh_token: refreshToken, expires_in: 600 };
      await pageRefresher(granted, async () => answer, "a").accessToken();
      expect(sentMarker(granted)).toBeNull();
    }

    const refused = expiredSession();
    const invalidGrant = Object.assign(new Error("invalid_grant"), { status: 400 });
    await expect(pageRefresher(refused, () => Promise.reject(invalidGrant), "a").accessToken()).rejects.toMatchObject({
      reason: "refresh_failed",
    });
    expect(sentMarker(refused)).toBeNull();
  });

  it("keeps the mark when the refresh ends without an answer (aborted by the page leaving, a network error)", async () => {
    const storage = expiredSession();
    const aborted = new DOMException("The user aborted a request.", "AbortError");
    const refresher = pageRefresher(storage, () => Promise.reject(aborted), "page-a", {
      isTransient: (error: unknown) => error === aborted,
    });
    await expect(refresher.accessToken()).rejects.toBe(aborted);
    expect(sentMarker(storage)).toEqual({ refreshToken: "r1", page: "page-a" });
    expect(readStored("refresh_token", storage)).toBe("r1");
  });

  it("marks nothing when the refresh could not even prepare (the sign-in configuration did not load)", async () => {
    const storage = expiredSession();
    const refresh = vi.fn();
    const unavailable = new Error("auth_config_unavailable");
    const refresher = pageRefresher(storage, refresh, "page-a", { prepare: () => Promise.reject(unavailable) });
    await expect(refresher.accessToken()).rejects.toBe(unavailable);
    expect(refresh).not.toHaveBeenCalled();
    expect(sentMarker(storage)).toBeNull();
  });

  it("does not redeem a token another page sent without an answer: the answer was lost", async () => {
    const storage = expiredSession();
    markRefreshSent({ refreshToken: "r1", page: "page-a" }, storage);
    const refresh = vi.fn();
    const refresher = pageRefresher(storage, refresh, "page-b", { sleep: () => Promise.resolve() });
    const first = refresher.accessToken();
    expect(refresher.refreshing).toBe(true);
    // A request that comes while the refresh runs waits for it, then shares its end.
    const waiter = refresher.accessToken();
    await expect(first).rejects.toMatchObject({ reason: "answer_lost" });
    await expect(waiter).rejects.toMatchObject({ reason: "answer_lost" });
    expect(refresh).not.toHaveBeenCalled();
    // The token and the mark stay, so the browser's other pages do not redeem it either.
    expect(readStored("refresh_token", storage)).toBe("r1");
    expect(sentMarker(storage)).toEqual({ refreshToken: "r1", page: "page-a" });
  });

  it("lets the same page try again after its own network error", async () => {
    const storage = expiredSession();
    const offline = new Error("offline");
    const refresh = vi
      .fn<RefresherDeps["refresh"]>()
      .mockRejectedValueOnce(offline)
      .mockResolvedValueOnce({ access_token: "new", refresh_token: "r2", expires_in: 600 });
    const refresher = pageRefresher(storage, refresh, "page-a", { isTransient: (error: unknown) => error === offline });
    await expect(refresher.accessToken()).rejects.toBe(offline);
    expect(await refresher.accessToken()).toBe("new");
    expect(refresh).toHaveBeenNthCalledWith(2, "r1");
    expect(sentMarker(storage)).toBeNull();
  });

  it("ignores and replaces the mark of a refresh token no longer stored", async () => {
    const storage = expiredSession();
    markRefreshSent({ refreshToken: "r0", page: "page-a" }, storage);
    let markedWhenSent: unknown;
    const refresh = vi.fn(async () => {
      markedWhenSent = sentMarker(storage);
      return { access_token: "new", refresh_token: "r2", expires_in: 600 };
    });
    expect(await pageRefresher(storage, refresh, "page-b").accessToken()).toBe("new");
    expect(refresh).toHaveBeenCalledWith("r1");
    expect(markedWhenSent).toEqual({ refreshToken: "r1", page: "page-b" });
    expect(sentMarker(storage)).toBeNull();
  });

  it("reads the mark only with the lock: another page's refresh on the wire is waited for, not taken for lost", async () => {
    const storage = expiredSession();
    const lock = { held: Promise.resolve() };
    // Like navigator.locks: one task at a time, in order.
    const exclusive = <T>(task: () => Promise<T>) => {
      const run = lock.held.then(task);
      lock.held = run.then(
        () => undefined,
        () => undefined,
      );
      return run;
    };
    const answerA = deferred<TokenSet>();
    const pageA = pageRefresher(storage, () => answerA.promise, "page-a", { exclusive });
    const refreshB = vi.fn();
    const pageB = pageRefresher(storage, refreshB, "page-b", { exclusive });
    const fromA = pageA.accessToken();
    await vi.waitFor(() => expect(sentMarker(storage)).toEqual({ refreshToken: "r1", page: "page-a" }));
    const fromB = pageB.accessToken();
    answerA.resolve({ access_token: "new", refresh_token: "r2", expires_in: 600 });
    expect(await fromA).toBe("new");
    expect(await fromB).toBe("new");
    expect(refreshB).not.toHaveBeenCalled();
  });
});
