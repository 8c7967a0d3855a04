import { describe, expect, it } from "vitest";
import { COVER_RATIO_TEXT, clampToImage, coverSize, hasRatio, largestBox, usableCrop } from "./geometry";

describe("largestBox", () => {
  it("fills the width of a tall image and centres vertically", () => {
    expect(largestBox(1600, 1200)).toEqual({ x: 0, y: 150, width: 1600, height: 900 });
  });

  it("fills the height of a wide image and centres horizontally", () => {
    const box = largestBox(3000, 900);
    expect(box).toEqual({ x: 700, y: 0, width: 1600, height: 900 });
  });

  it("is the whole image when the image is 16:9 already", () => {
    expect(largestBox(1920, 1080)).toEqual({ x: 0, y: 0, width: 1920, height: 1080 });
  });

  it("is empty for an image without pixels", () => {
    expect(largestBox(0, 100)).toEqual({ x: 0, y: 0, width: 0, height: 0 });
  });
});

describe("clampToImage", () => {
  it("rounds to whole pixels", () => {
    expect(clampToImage({ x: 10.4, y: 20.6, width: 160.49, height: 90.2 }, 640, 480)).toEqual({
      x: 10,
      y: 21,
      width: 160,
      height: 90,
    });
  });

  it("keeps a box that pokes out of the image inside it", () => {
    expect(clampToImage({ x: -0.7, y: 300.2, width: 641.3, height: 360.9 }, 640, 480)).toEqual({
      x: 0,
      y: 300,
      width: 640,
      height: 180,
    });
  });
});

describe("coverSize", () => {
  it("is exactly 16:9 for any box, never larger than the box", () => {
    for (const box of [
      { width: 1600, height: 900 },
      { width: 333, height: 187.3 },
      { width: 1001, height: 563 },
      { width: 319.9, height: 180 },
    ]) {
      const size = coverSize(box);
      expect(size.width * 9).toBe(size.height * 16);
      expect(size.width).toBeLessThanOrEqual(box.width);
      expect(size.height).toBeLessThanOrEqual(box.height);
      expect(box.width - size.width).toBeLessThan(16 + 1);
      expect(hasRatio(size.width, size.height)).toBe(true);
    }
  });

  it("scales a large box down to the maximum width", () => {
    expect(coverSize({ width: 3840, height: 2160 })).toEqual({ width: 1920, height: 1080 });
    expect(coverSize({ width: 3840, height: 2160 }, undefined, 640)).toEqual({ width: 640, height: 360 });
  });

  it("is at least one step for a tiny box", () => {
    expect(coverSize({ width: 3, height: 2 })).toEqual({ width: 16, height: 9 });
  });
});

describe("hasRatio", () => {
  it("accepts a pixel of rounding and refuses 4:3", () => {
    expect(hasRatio(1920, 1080)).toBe(true);
    expect(hasRatio(1921, 1080)).toBe(true);
    expect(hasRatio(1600, 1200)).toBe(false);
  });

  it("names the ratio as the server's ratio field takes it", () => {
    expect(COVER_RATIO_TEXT).toBe("16:9");
  });
});

describe("usableCrop", () => {
  it("takes a box with a size", () => {
    expect(usableCrop({ x: 0, y: 10, width: 160, height: 90 })).toBe(true);
  });

  it("refuses a box collapsed to a point, a NaN box and no box", () => {
    expect(usableCrop({ x: 3, y: 4, width: 0, height: 0 })).toBe(false);
    expect(usableCrop({ x: Number.NaN, y: 0, width: 160, height: 90 })).toBe(false);
    expect(usableCrop({ x: 0, y: 0, width: Number.POSITIVE_INFINITY, height: 90 })).toBe(false);
    expect(usableCrop(null)).toBe(false);
  });
});
