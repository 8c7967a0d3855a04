import { describe, expect, it } from "vitest";
import { formatDuration, formatSize, propertyText } from "./format";

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

describe("propertyText", () => {
  const level = {
    kind: "select" as const,
    options: [
      { value: "urgent", label: "加急" },
      { value: "normal", label: "普通" },
    ],
  };
  it("shows a code list's values by their labels", () => {
    expect(propertyText("urgent", level)).toBe("加急");
    expect(propertyText(["normal", "urgent"], { ...level, kind: "multiselect" })).toBe("普通, 加急");
  });
  it("keeps a value the list lacks, and values without a definition, as they are", () => {
    expect(propertyText("gone", level)).toBe("gone");
    expect(propertyText("Canon EOS 40D")).toBe("Canon EOS 40D");
    expect(propertyText(12)).toBe("12");
    expect(propertyText({ iso: 100 })).toBe('{"iso":100}');
  });
  it("shows a switch as a mark", () => {
    expect(propertyText(true, { kind: "switch", options: [] })).toBe("✓");
    expect(propertyText(false, { kind: "switch", options: [] })).toBe("✗");
  });
});
