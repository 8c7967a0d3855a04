import { describe, expect, it } from "vitest";
import { logoPlacement, scaledSize, textWidthEm, wrapLines } from "./text-layout.js";
import { toWebVtt, vttTime } from "./webvtt.js";

describe("text layout", () => {
  it("counts CJK characters as one em and Latin as about half", () => {
    expect(textWidthEm("台风")).toBe(2);
    expect(textWidthEm("ab")).toBeCloseTo(1.12);
    expect(textWidthEm("，。")).toBe(2);
  });

  it("wraps Latin at spaces and Chinese between characters, keeping every character", () => {
    expect(wrapLines("the quick brown fox jumps", 6)).toEqual(["the quick", "brown fox", "jumps"]);
    expect(wrapLines("台风山竹今天登陆广东", 4)).toEqual(["台风山竹", "今天登陆", "广东"]);
    expect(wrapLines("记者 Li Ming 报道", 5)).toEqual(["记者 Li", "Ming 报道"]);
  });

  it("cuts a word wider than the line, and keeps the lines written", () => {
    expect(wrapLines("abcdefghijkl", 3).join("")).toBe("abcdefghijkl");
    expect(wrapLines("abcdefghijkl", 3).every((line) => textWidthEm(line) <= 3)).toBe(true);
    expect(wrapLines("one\ntwo", 20)).toEqual(["one", "two"]);
  });

  it("scales sizes given at 1080 lines with the frame's shorter side", () => {
    expect(scaledSize({ width: 1920, height: 1080 }, 72)).toBe(72);
    expect(scaledSize({ width: 1280, height: 720 }, 72)).toBe(48);
    expect(scaledSize({ width: 1080, height: 1920 }, 72)).toBe(72);
  });

  it("places a logo like the image editor places a watermark (2 % margins)", () => {
    const frame = { width: 1920, height: 1080 };
    const names = { w: "w", h: "h", W: "W", H: "H" };
    expect(logoPlacement({ position: "lower-left", x: 0, y: 0 }, frame, names)).toEqual({ x: "22", y: "H-h-22" });
    expect(logoPlacement({ position: "center", x: 0, y: 0 }, frame, names)).toEqual({ x: "(W-w)/2", y: "(H-h)/2" });
  });
});

describe("WebVTT", () => {
  it("writes times as hh:mm:ss.mmm", () => {
    expect(vttTime(0)).toBe("00:00:00.000");
    expect(vttTime(3725.5)).toBe("01:02:05.500");
  });

  it("writes cues in time order, with text that cannot end or start a cue", () => {
    expect(
      toWebVtt([
        { start: 2, end: 3, text: "b <i>&\n\nnext --> x" },
        { start: 0.5, end: 1.25, text: "第一句" },
      ]),
    ).toBe(
      "WEBVTT\n\n00:00:00.500 --> 00:00:01.250\n第一句\n\n00:00:02.000 --> 00:00:03.000\nb &lt;i>&amp;\nnext --&gt; x\n",
    );
  });
});
