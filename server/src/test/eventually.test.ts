import { describe, expect, it } from "vitest";
import { eventually, until } from "./eventually.js";

describe("waiting for a condition", () => {
  it("returns the first value that passes the check, having read again until then", async () => {
    let reads = 0;
    const value = await eventually(
      () => ++reads,
      (count) => count === 3,
    );
    expect(value).toBe(3);
    expect(reads).toBe(3);
  });

  it("fails after its bound, naming what it waited for and the last value read", async () => {
    await expect(
      eventually(
        () => ({ state: "running" }),
        (job) => job.state === "done",
        { what: "the job done", limitMs: 50, intervalMs: 5 },
      ),
    ).rejects.toThrow('the job done: not met in 0.05 s (last: {"state":"running"})');
  });

  it("fails at once on a read that throws, unless told to read again", async () => {
    const flaky = () => {
      let reads = 0;
      return () => {
        if (++reads < 3) throw new Error("connection refused");
        return reads;
      };
    };
    await expect(eventually(flaky(), () => true)).rejects.toThrow("connection refused");
    expect(await eventually(flaky(), () => true, { retryErrors: true, intervalMs: 5 })).toBe(3);
    await expect(
      eventually(
        () => {
          throw new Error("still down");
        },
        () => true,
        { what: "a node", limitMs: 30, intervalMs: 5, retryErrors: true },
      ),
    ).rejects.toThrow("a node: not met in 0.03 s (last: still down)");
  });

  it("until returns the first value given that is neither undefined nor false", async () => {
    const values = [undefined, false, 0, 7];
    expect(await until(() => values.shift(), "a value")).toBe(0);
    expect(await until(async () => values.shift() === 7)).toBe(true);
  });
});
