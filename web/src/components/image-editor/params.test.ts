import { WATERMARK_FONTS } from "@shared/watermark";
import { describe, expect, it } from "vitest";
import enUS from "../../locales/en-US";
import {
  checkWatermark,
  colourOperation,
  initialWatermark,
  resizeOperation,
  rotateOperation,
  WATERMARK_WARNINGS,
  watermarkOperation,
} from "./params";

const image = { width: 640, height: 480 };
const text = { ...initialWatermark, type: 2 as const, text: "新华社" };
const withImage = { ...initialWatermark, imageUrl: "data:image/png;base64,AA==", imageWidth: 10, imageHeight: 5 };

describe("watermark defaults and checks (spec sections 5 and 9)", () => {
  it("defaults: image type, lower right, opacity 100, size 100, 30 px white on black, the first of 13 fonts", () => {
    expect(initialWatermark).toMatchObject({
      type: 1,
      position: "lower-right",
      opacity: 100,
      sizePercent: 100,
      fontSize: 30,
      color: "#ffffff",
      background: "#000000",
      fontFamily: WATERMARK_FONTS[0],
    });
    expect(WATERMARK_FONTS).toHaveLength(13);
    expect(new Set(WATERMARK_FONTS).size).toBe(13);
  });

  it("the spec's messages, verbatim in en-US", () => {
    const en = enUS as Record<string, string>;
    expect(en[WATERMARK_WARNINGS.required]).toBe("please enter watermark text.");
    expect(en[WATERMARK_WARNINGS.tooLong]).toBe("watermark text may contain at most 100 characters.");
    expect(en[WATERMARK_WARNINGS.notImage]).toBe("please select an image file.");
  });

  it("text: warnings for missing or too long text, silent refusal of font sizes outside 1..1000", () => {
    expect(checkWatermark({ ...text, text: "" }, image)).toBe("required");
    expect(checkWatermark({ ...text, text: "x".repeat(101) }, image)).toBe("tooLong");
    expect(checkWatermark({ ...text, text: "x".repeat(100) }, image)).toBe("ok");
    expect(checkWatermark({ ...text, fontSize: 0 }, image)).toBe("silent");
    expect(checkWatermark({ ...text, fontSize: 1 }, image)).toBe("ok");
    expect(checkWatermark({ ...text, fontSize: 1000 }, image)).toBe("ok");
    expect(checkWatermark({ ...text, fontSize: 1001 }, image)).toBe("silent");
    expect(checkWatermark({ ...text, fontSize: Number.NaN }, image)).toBe("silent");
  });

  it("image: needs an image; size and opacity 1..100 or silent refusal", () => {
    expect(checkWatermark(initialWatermark, image)).toBe("notImage");
    expect(checkWatermark(withImage, image)).toBe("ok");
    expect(checkWatermark({ ...withImage, sizePercent: 0 }, image)).toBe("silent");
    expect(checkWatermark({ ...withImage, sizePercent: 101 }, image)).toBe("silent");
    expect(checkWatermark({ ...withImage, opacity: 0 }, image)).toBe("silent");
    expect(checkWatermark({ ...withImage, opacity: 1 }, image)).toBe("ok");
    expect(checkWatermark({ ...withImage, opacity: 101 }, image)).toBe("silent");
  });

  it("arbitrary position: inside the image or silent refusal; other positions ignore x and y", () => {
    const anywhere = { ...text, position: "arbitrary" as const };
    expect(checkWatermark({ ...anywhere, x: 640, y: 480 }, image)).toBe("ok");
    expect(checkWatermark({ ...anywhere, x: 641, y: 0 }, image)).toBe("silent");
    expect(checkWatermark({ ...anywhere, x: 0, y: 481 }, image)).toBe("silent");
    expect(checkWatermark({ ...anywhere, x: -1, y: 0 }, image)).toBe("silent");
    expect(checkWatermark({ ...text, x: -1, y: 9999 }, image)).toBe("ok");
  });

  it("the watermark operation carries the mark; the preview may cap the font size", () => {
    expect(watermarkOperation(initialWatermark)).toBeNull();
    expect(watermarkOperation({ ...text, fontSize: 300 }, 100)).toMatchObject({
      kind: "watermark",
      position: "lower-right",
      mark: { type: "text", fontSize: 100, text: "新华社" },
    });
    expect(watermarkOperation(withImage)).toMatchObject({ mark: { type: "image", sizePercent: 100 } });
  });
});

describe("operations of the other modes", () => {
  it("rotation only when the sum is not 0 or a flip is on; white fill for non-PNG", () => {
    expect(rotateOperation({ slider: 0, turns: 0, flipH: false, flipV: false }, "image/jpeg")).toBeNull();
    expect(rotateOperation({ slider: 90, turns: -90, flipH: false, flipV: false }, "image/jpeg")).toBeNull();
    expect(rotateOperation({ slider: 0, turns: 0, flipH: true, flipV: false }, "image/png")).toEqual({
      kind: "rotate",
      degrees: 0,
      flipH: true,
      flipV: false,
      fill: null,
    });
    expect(rotateOperation({ slider: -30, turns: 90, flipH: false, flipV: false }, "image/jpeg")).toMatchObject({
      degrees: 60,
      fill: "#ffffff",
    });
  });
  it("neutral colours and an unchanged size make no operation", () => {
    expect(colourOperation({ brightness: 0, contrast: 0, sharpen: 0 })).toBeNull();
    expect(colourOperation({ brightness: 0, contrast: 0, sharpen: 1 })).toMatchObject({ kind: "colour", sharpen: 1 });
    expect(resizeOperation({ width: 640, height: 480, percent: 100, locked: true }, image)).toBeNull();
    expect(resizeOperation({ width: 320, height: 240, percent: 50, locked: true }, image)).toEqual({
      kind: "resize",
      width: 320,
      height: 240,
    });
  });
});
