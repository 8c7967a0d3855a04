import { describe, expect, it } from "vitest";
import { retryAfterMs } from "../channels/transports/transport.js";
import { ACTION_RUN_BUDGET_MS, ACTION_RUN_TIMEOUT_MS } from "./action-runner.js";
import {
  WEBHOOK_ATTEMPTS,
  WEBHOOK_MAX_DELAY_MS,
  WEBHOOK_MIN_CALL_MS,
  webhookCallTimeoutMs,
  webhookDelayMs,
} from "./rule-steps.js";

describe("webhook retry waits", () => {
  const backoff = { baseMs: 5000, maxMs: 3_600_000 };

  it("double from the queue's backoff, capped by its maximum and by WEBHOOK_MAX_DELAY_MS", () => {
    expect([1, 2, 3].map((attempt) => webhookDelayMs(backoff, attempt))).toEqual([5000, 10_000, WEBHOOK_MAX_DELAY_MS]);
    expect(webhookDelayMs({ baseMs: 20, maxMs: 100 }, 4)).toBe(100);
    expect(webhookDelayMs(backoff, 1, undefined)).toBe(5000);
  });

  it("wait longer when the receiver's Retry-After asks, never beyond the cap", () => {
    expect(webhookDelayMs(backoff, 1, 12_000)).toBe(12_000);
    expect(WEBHOOK_MAX_DELAY_MS).toBe(15_000);
    expect(webhookDelayMs(backoff, 1, 1000)).toBe(5000);
    expect(webhookDelayMs(backoff, 1, 3_600_000)).toBe(WEBHOOK_MAX_DELAY_MS);
  });

  it("read Retry-After as seconds or as an HTTP date", () => {
    const now = Date.parse("2026-11-26T08:00:00Z");
    expect(retryAfterMs("7", now)).toBe(7000);
    expect(retryAfterMs("Thu, 26 Nov 2026 08:00:30 GMT", now)).toBe(30_000);
    expect(retryAfterMs("Thu, 26 Nov 2026 07:00:00 GMT", now)).toBe(0);
    expect(retryAfterMs("soon", now)).toBeUndefined();
    expect(retryAfterMs(undefined, now)).toBeUndefined();
  });

  it("cut each call to what is left of the run's budget, and make none when too little is left", () => {
    const now = 1_000_000;
    expect(webhookCallTimeoutMs(10_000, now + 60_000, now)).toBe(10_000);
    expect(webhookCallTimeoutMs(10_000, now + 4000, now)).toBe(4000);
    expect(webhookCallTimeoutMs(10_000, now + WEBHOOK_MIN_CALL_MS - 1, now)).toBeNull();
    expect(webhookCallTimeoutMs(10_000, now - 1, now)).toBeNull();
    // One webhook at the longest timeout, with every retry and the longest waits, fits the budget,
    // and the budget ends before the run job's limit: several slow webhooks end with a reason, not a timeout.
    expect(WEBHOOK_ATTEMPTS * 60_000 + (WEBHOOK_ATTEMPTS - 1) * WEBHOOK_MAX_DELAY_MS).toBeLessThanOrEqual(
      ACTION_RUN_BUDGET_MS,
    );
    expect(ACTION_RUN_BUDGET_MS).toBeLessThan(ACTION_RUN_TIMEOUT_MS);
  });
});
