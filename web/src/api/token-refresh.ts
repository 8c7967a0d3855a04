/**
 * Spec section 4 "Session", step 6: every request carries the stored token;
 * when it is missing (or expired) the stored refresh token gets a new one,
 * and other requests wait while that refresh runs, checking every 500 ms up
 * to 30 times. A refresh failure or a stale expiry ends the session.
 *
 * A refresh whose answer was lost (the page that sent it left) is not redeemed
 * again: while the grant is on the wire a marker names its refresh token, and
 * another page finding that marker restarts the sign-in instead.
 */
import { randomToken } from "./pkce";
import {
  clearRefreshSent,
  defaultStorage,
  type KeyValueStorage,
  markRefreshSent,
  readRefreshSent,
  storeTokens,
  type TokenSet,
  tokenStatus,
} from "./session";

export const REFRESH_RETRY_INTERVAL_MS = 500;
export const REFRESH_MAX_RETRIES = 30;
/**
 * How long the first caller waits for the refresh lock: the waiters' budget
 * (30 × 500 ms). Another page of the browser may hold the lock with a refresh
 * that never ends; without a bound this page would show its spinner for ever.
 */
export const REFRESH_LOCK_WAIT_MS = REFRESH_MAX_RETRIES * REFRESH_RETRY_INTERVAL_MS;

/**
 * The session cannot go on: the caller removes the tokens, logs out, tells the
 * user and reloads — except for `answer_lost` (the stored refresh token was
 * sent by a page that left before the answer came, so the provider has
 * probably rotated it): the caller restarts the sign-in without a word.
 */
export class SessionExpiredError extends Error {
  constructor(
    readonly reason: "stale" | "refresh_failed" | "refresh_timeout" | "answer_lost",
    cause?: unknown,
  ) {
    super(`session expired (${reason})`, { cause });
    this.name = "SessionExpiredError";
  }
}

export interface RefresherDeps {
  refresh: (refreshToken: string) => Promise<TokenSet>;
  /** What the refresh needs before it sends the refresh token (the sign-in configuration). */
  prepare?: () => Promise<void>;
  /** This page instance, in the marker of a refresh it sent (random by default). */
  page?: string;
  storage?: KeyValueStorage | undefined;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /**
   * Runs the refresh under a lock shared by the browser's tabs (Web Locks),
   * so two tabs never redeem the same rotating refresh token: the provider
   * treats a second redemption as theft and revokes the whole grant. An
   * aborted `signal` withdraws a request still waiting for the lock.
   */
  exclusive?: <T>(task: () => Promise<T>, signal: AbortSignal) => Promise<T>;
  /** Aborts when the first caller stops waiting for the lock (REFRESH_LOCK_WAIT_MS from now). */
  lockDeadline?: () => AbortSignal;
  /** Errors that are not the provider's refusal (no answer): the session is kept. */
  isTransient?: (error: unknown) => boolean;
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export const REFRESH_LOCK_NAME = "dams-token-refresh";

export function webLock<T>(task: () => Promise<T>, signal: AbortSignal): Promise<T> {
  const locks = typeof navigator === "undefined" ? undefined : navigator.locks;
  return locks ? (locks.request(REFRESH_LOCK_NAME, { signal }, task) as Promise<T>) : task();
}

export class TokenRefresher {
  #refreshing = false;
  /** How the last refresh of this page failed (null when it renewed the token): its waiters end the same way. */
  #lastFailure: unknown = null;
  readonly #deps: Required<Omit<RefresherDeps, "storage">> & { storage: KeyValueStorage | undefined };

  constructor(deps: RefresherDeps) {
    this.#deps = {
      storage: deps.storage ?? defaultStorage(),
      now: deps.now ?? Date.now,
      sleep: deps.sleep ?? realSleep,
      exclusive: deps.exclusive ?? ((task) => task()),
      lockDeadline: deps.lockDeadline ?? (() => AbortSignal.timeout(REFRESH_LOCK_WAIT_MS)),
      isTransient: deps.isTransient ?? (() => false),
      refresh: deps.refresh,
      prepare: deps.prepare ?? (() => Promise.resolve()),
      page: deps.page ?? randomToken(12),
    };
  }

  get refreshing(): boolean {
    return this.#refreshing;
  }

  /**
   * The access token to send: the stored one while it is fresh, otherwise a
   * refreshed one; null for a guest (no tokens at all). Rejects with
   * SessionExpiredError when the session cannot be renewed.
   */
  async accessToken(): Promise<string | null> {
    const { storage, now } = this.#deps;
    const status = tokenStatus(storage, now());
    if (status.kind === "valid") return status.accessToken;
    if (status.kind === "none") return null;
    if (status.kind === "stale") throw new SessionExpiredError("stale");
    if (this.#refreshing) return this.#waitForRefresh();
    return this.#refresh();
  }

  async #refresh(): Promise<string> {
    this.#refreshing = true;
    const giveUp = this.#deps.lockDeadline();
    let granted = false;
    try {
      const token = await this.#deps.exclusive(async () => {
        granted = true;
        // Another tab may have refreshed while this one waited for the lock,
        // or ended the session (its refresh refused): then there is nothing to renew.
        const status = tokenStatus(this.#deps.storage, this.#deps.now());
        if (status.kind === "valid") return status.accessToken;
        if (status.kind !== "refresh") throw new SessionExpiredError("stale");
        return this.#redeem(status.refreshToken);
      }, giveUp);
      this.#lastFailure = null;
      return token;
    } catch (error) {
      // The lock never came (another page's refresh does not end): the same
      // end as a waiter whose 30 checks ran out.
      this.#lastFailure = !granted && giveUp.aborted ? new SessionExpiredError("refresh_timeout", error) : error;
      throw this.#lastFailure;
    } finally {
      this.#refreshing = false;
    }
  }

  /**
   * Redeems `refreshToken` (under the lock), with a marker in the shared
   * storage while the grant is on the wire. The marker goes when an answer
   * arrives, a refusal included; a fetch that ends without one (aborted by the
   * page leaving, a network error) leaves it: the provider may have rotated
   * the token. The same page may try again after its own network error;
   * another page finding the marker does not redeem the token.
   */
  async #redeem(refreshToken: string): Promise<string> {
    const { storage, page } = this.#deps;
    if (this.#answerLost(refreshToken)) throw new SessionExpiredError("answer_lost");
    await this.#deps.prepare();
    // Replaces a stale marker (of a token no longer stored) or this page's own from an earlier try.
    markRefreshSent({ refreshToken, page }, storage);
    let tokens: TokenSet;
    try {
      tokens = await this.#deps.refresh(refreshToken);
    } catch (error) {
      if (this.#deps.isTransient(error)) throw error;
      clearRefreshSent(storage);
      throw new SessionExpiredError("refresh_failed", error);
    }
    storeTokens(tokens, storage, this.#deps.now());
    clearRefreshSent(storage);
    return tokens.access_token;
  }

  /** Whether the stored refresh token is one another page sent without getting the answer. */
  #answerLost(refreshToken: string): boolean {
    const sent = readRefreshSent(this.#deps.storage);
    return sent?.refreshToken === refreshToken && sent.page !== this.#deps.page;
  }

  /** The other requests: wait for the running refresh, 30 checks 500 ms apart. */
  async #waitForRefresh(): Promise<string> {
    for (let attempt = 0; attempt < REFRESH_MAX_RETRIES; attempt++) {
      await this.#deps.sleep(REFRESH_RETRY_INTERVAL_MS);
      if (this.#refreshing) continue;
      const status = tokenStatus(this.#deps.storage, this.#deps.now());
      if (status.kind === "valid") return status.accessToken;
      // The refresh's own end: a refusal ends the session, a lost answer restarts the sign-in, and no
      // answer at all (the network) keeps the session for these requests as for the one that refreshed.
      throw this.#lastFailure ?? new SessionExpiredError("refresh_failed");
    }
    throw new SessionExpiredError("refresh_timeout");
  }
}
