import { describe, expect, it } from "vitest";
import { frameAt, parsePeaks, parseStripIndex, timeAtPosition } from "./strip";

const strip = {
  frames: [
    { index: 0, time: 0.5, x: 0, y: 0 },
    { index: 1, time: 1.5, x: 160, y: 0 },
    { index: 2, time: 2.5, x: 320, y: 0 },
  ],
};

describe("thumbnail strip", () => {
  it("picks the last frame at or before a time, the first before any", () => {
    expect(frameAt(strip, 0)?.index).toBe(0);
    expect(frameAt(strip, 1.5)?.index).toBe(1);
    expect(frameAt(strip, 2.49)?.index).toBe(1);
    expect(frameAt(strip, 99)?.index).toBe(2);
    expect(frameAt({ frames: [] }, 1)).toBeUndefined();
  });

  it("maps a pointer position to a time, clamped", () => {
    expect(timeAtPosition(50, 200, 10)).toBe(2.5);
    expect(timeAtPosition(-5, 200, 10)).toBe(0);
    expect(timeAtPosition(500, 200, 10)).toBe(10);
    expect(timeAtPosition(50, 0, 10)).toBe(0);
    expect(timeAtPosition(50, 200, Number.NaN)).toBe(0);
  });

  it("reads the strip index the media job writes and refuses other JSON", () => {
    const index = parseStripIndex({
      sprite: "strip.jpg",
      frameWidth: 160,
      frameHeight: 90,
      durationSeconds: 3,
      frames: [...strip.frames, { bad: 1 }],
    });
    expect(index?.frames).toHaveLength(3);
    expect(parseStripIndex({ peaks: [] })).toBeNull();
    expect(parseStripIndex(null)).toBeNull();
  });

  it("reads waveform peaks", () => {
    expect(parsePeaks({ peaks: [0, 0.5, 1] })).toEqual([0, 0.5, 1]);
    expect(parsePeaks({ peaks: [] })).toBeNull();
    expect(parsePeaks({ peaks: ["x"] })).toBeNull();
    expect(parsePeaks(null)).toBeNull();
  });
});
