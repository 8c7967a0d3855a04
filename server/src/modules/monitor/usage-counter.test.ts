import { describe, expect, it } from "vitest";
import { UtcDays } from "./usage-counter.js";

describe("UtcDays", () => {
  it("gives each moment its UTC day, across midnights, backwards and far apart", () => {
    const days = new UtcDays();
    const moments = [
      "2026-11-27T23:59:59.999Z",
      "2026-11-28T00:00:00.000Z",
      "2026-11-27T12:00:00.000Z",
      "2026-11-28T23:59:59.999Z",
      "2025-02-28T00:00:00.001Z",
      "2026-11-29T00:00:00.000Z",
      "1969-12-31T23:59:59.000Z",
      "1970-01-01T00:00:00.000Z",
    ];
    for (const moment of moments) expect(days.of(new Date(moment))).toBe(moment.slice(0, 10));
  });

  it("refuses an invalid date as toISOString does, even after a valid one", () => {
    const days = new UtcDays();
    days.of(new Date("2026-11-27T10:00:00Z"));
    expect(() => days.of(new Date(Number.NaN))).toThrow(RangeError);
  });
});
