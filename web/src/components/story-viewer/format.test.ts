import { describe, expect, it } from "vitest";
import { formatDuration, formatSize } from "./format";

describe("formatting", () => {
  it("sizes in KB, MB or GB", () => {
    expect(formatSize(2048)).toBe("2.0 KB");
    expect(formatSize(5 * 1024 * 1024)).toBe("5.0 MB");
    expect(formatSize(3 * 1024 ** 3)).toBe("3.00 GB");
  });
  it("durations as m:ss or h:mm:ss", () => {
    expect(formatDuration(5)).toBe("0:05");
    expect(formatDuration(125.4)).toBe("2:05");
    expect(formatDuration(3725)).toBe("1:02:05");
  });
});
