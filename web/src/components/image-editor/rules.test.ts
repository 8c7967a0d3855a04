import { describe, expect, it } from "vitest";
import {
  acceptAttribute,
  aspectRatioOf,
  type Box,
  CROP_ASPECTS,
  type CropAspect,
  clampCropBox,
  colourAccepted,
  colourChanges,
  cropApplies,
  detectPlatformLimits,
  exactAspect,
  featureAllowed,
  fontSizeAccepted,
  HEADER_UPLOAD_EXTENSIONS,
  imageSizeAccepted,
  initialResize,
  isAcceptedImage,
  isWindows32,
  LARGE_LIMITS,
  maxResizePercent,
  opacityAccepted,
  PICK_IMAGE_EXTENSIONS,
  platformLimits,
  positionAccepted,
  previewFontSize,
  resizeAccepted,
  resizeHeight,
  resizePercent,
  resizeWidth,
  rotationApplies,
  rotationFill,
  rotationSum,
  SMALL_LIMITS,
  WATERMARK_IMAGE_EXTENSIONS,
  watermarkTextProblem,
  zoomIn,
  zoomOut,
  zoomStep,
} from "./rules";

const WIN32 = "Mozilla/5.0 (Windows NT 10.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/109.0 Safari/537.36";
const WIN64 =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36";
const WOW64 = "Mozilla/5.0 (Windows NT 6.1; WOW64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/49.0 Safari/537.36";
const MAC =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15";
const LINUX = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36";
const MB = 1024 * 1024;

describe("platform limits (spec section 9)", () => {
  it("32-bit Windows gets the small set, everything else the large set", () => {
    expect(isWindows32({ userAgent: WIN32 })).toBe(true);
    expect(isWindows32({ userAgent: WIN64 })).toBe(false);
    expect(isWindows32({ userAgent: WOW64 })).toBe(false);
    expect(isWindows32({ userAgent: MAC })).toBe(false);
    expect(isWindows32({ userAgent: LINUX })).toBe(false);
    // Client hints win over the (frozen) user agent string.
    expect(isWindows32({ userAgent: WIN64, platform: "Windows", bitness: "32" })).toBe(true);
    expect(isWindows32({ userAgent: WIN32, platform: "Windows", bitness: "64" })).toBe(false);
    expect(isWindows32({ userAgent: LINUX, platform: "Linux", bitness: "32" })).toBe(false);
    expect(platformLimits({ userAgent: WIN32 })).toBe(SMALL_LIMITS);
    expect(platformLimits({ userAgent: LINUX })).toBe(LARGE_LIMITS);
  });

  it("reads the hints from the browser", async () => {
    expect(await detectPlatformLimits({ userAgent: WIN32 })).toBe(SMALL_LIMITS);
    const hinted = {
      userAgent: WIN64,
      userAgentData: { platform: "Windows", getHighEntropyValues: async () => ({ bitness: "32" }) },
    };
    expect(await detectPlatformLimits(hinted)).toBe(SMALL_LIMITS);
    const failing = {
      userAgent: WIN64,
      userAgentData: { platform: "Windows", getHighEntropyValues: () => Promise.reject(new Error("denied")) },
    };
    expect(await detectPlatformLimits(failing)).toBe(LARGE_LIMITS);
  });

  it("has the spec's numbers", () => {
    expect(SMALL_LIMITS.maxResizeLength).toBe(5000);
    expect(LARGE_LIMITS.maxResizeLength).toBe(10000);
    // The spec's table: a feature's limit on a small and on a large platform, as [px, MB].
    const spec = {
      resize: { small: [7000, 15], large: [20000, 50] },
      rotate: { small: [5000, 15], large: [10000, 20] },
      crop: { small: [5000, 15], large: [10000, 20] },
      watermark: { small: [5000, 15], large: [10000, 20] },
      ps: { small: [4000, 8], large: [10000, 20] },
      colour: { small: [4000, 8], large: [10000, 20] },
      advancedRender: { small: [4000, 8], large: [10000, 20] },
      mosaic: { small: [4000, 8], large: [6000, 20] },
    };
    const column = (platform: "small" | "large") =>
      Object.fromEntries(
        Object.entries(spec).map(([feature, limits]) => {
          const [px, mb] = limits[platform];
          return [feature, { px, mb }];
        }),
      );
    expect(SMALL_LIMITS.features).toEqual(column("small"));
    expect(LARGE_LIMITS.features).toEqual(column("large"));
  });

  it("a feature works up to its limit in pixels and megabytes, inclusive", () => {
    const cases: [typeof SMALL_LIMITS, "resize" | "rotate" | "colour" | "mosaic", number, number][] = [
      [SMALL_LIMITS, "resize", 7000, 15],
      [SMALL_LIMITS, "rotate", 5000, 15],
      [SMALL_LIMITS, "colour", 4000, 8],
      [LARGE_LIMITS, "resize", 20000, 50],
      [LARGE_LIMITS, "rotate", 10000, 20],
      [LARGE_LIMITS, "mosaic", 6000, 20],
    ];
    for (const [limits, feature, px, mb] of cases) {
      expect(featureAllowed(limits, feature, { width: px, height: 10, bytes: mb * MB })).toBe(true);
      expect(featureAllowed(limits, feature, { width: 10, height: px, bytes: 1 })).toBe(true);
      expect(featureAllowed(limits, feature, { width: px + 1, height: 10, bytes: 1 })).toBe(false);
      expect(featureAllowed(limits, feature, { width: 10, height: px + 1, bytes: 1 })).toBe(false);
      expect(featureAllowed(limits, feature, { width: 10, height: 10, bytes: mb * MB + 1 })).toBe(false);
    }
  });
});

describe("file types (spec section 5)", () => {
  const file = (name: string, type: string) => ({ name, type });
  it("the header upload takes .jpg .jpeg .png .bmp", () => {
    expect(acceptAttribute(HEADER_UPLOAD_EXTENSIONS)).toBe(".jpg,.jpeg,.png,.bmp");
    for (const name of ["a.jpg", "a.JPEG", "a.png", "a.bmp"])
      expect(isAcceptedImage(file(name, "image/x"), HEADER_UPLOAD_EXTENSIONS)).toBe(true);
    for (const name of ["a.webp", "a.gif", "a.tif", "jpg"])
      expect(isAcceptedImage(file(name, "image/x"), HEADER_UPLOAD_EXTENSIONS)).toBe(false);
  });
  it("another image: jpg jpeg png bmp webp gif, and only image/* files", () => {
    for (const name of ["a.jpg", "a.jpeg", "a.png", "a.bmp", "a.webp", "a.gif"])
      expect(isAcceptedImage(file(name, "image/x"), PICK_IMAGE_EXTENSIONS)).toBe(true);
    expect(isAcceptedImage(file("a.svg", "image/svg+xml"), PICK_IMAGE_EXTENSIONS)).toBe(false);
    expect(isAcceptedImage(file("a.heic", "image/heic"), PICK_IMAGE_EXTENSIONS)).toBe(false);
    expect(isAcceptedImage(file("a.jpg", "text/plain"), PICK_IMAGE_EXTENSIONS)).toBe(false);
    expect(isAcceptedImage(file("a.png", ""), PICK_IMAGE_EXTENSIONS)).toBe(false);
  });
  it("the watermark image: jpeg jpg png only", () => {
    for (const name of ["a.jpg", "a.jpeg", "a.png"])
      expect(isAcceptedImage(file(name, "image/x"), WATERMARK_IMAGE_EXTENSIONS)).toBe(true);
    for (const name of ["a.gif", "a.webp", "a.bmp"])
      expect(isAcceptedImage(file(name, "image/x"), WATERMARK_IMAGE_EXTENSIONS)).toBe(false);
    expect(isAcceptedImage(file("a.png", "application/octet-stream"), WATERMARK_IMAGE_EXTENSIONS)).toBe(false);
  });
});

describe("watermark (spec section 5)", () => {
  it("text is required and at most 100 characters", () => {
    expect(watermarkTextProblem("")).toBe("required");
    expect(watermarkTextProblem("   ")).toBe("required");
    expect(watermarkTextProblem("a")).toBeNull();
    expect(watermarkTextProblem("a".repeat(100))).toBeNull();
    expect(watermarkTextProblem("a".repeat(101))).toBe("tooLong");
    expect(watermarkTextProblem("新".repeat(100))).toBeNull();
    // Characters, not UTF-16 units: 100 emoji are 100 characters.
    expect(watermarkTextProblem("📷".repeat(100))).toBeNull();
    expect(watermarkTextProblem("📷".repeat(101))).toBe("tooLong");
  });
  it("font size 1 to 1000, preview capped at 100", () => {
    expect(fontSizeAccepted(0)).toBe(false);
    expect(fontSizeAccepted(1)).toBe(true);
    expect(fontSizeAccepted(1000)).toBe(true);
    expect(fontSizeAccepted(1001)).toBe(false);
    expect(fontSizeAccepted(Number.NaN)).toBe(false);
    expect(fontSizeAccepted(30.5)).toBe(false);
    expect(previewFontSize(99)).toBe(99);
    expect(previewFontSize(100)).toBe(100);
    expect(previewFontSize(101)).toBe(100);
    expect(previewFontSize(1000)).toBe(100);
  });
  it("opacity 1 to 100, image size 1 to 100", () => {
    for (const accepted of [opacityAccepted, imageSizeAccepted]) {
      expect(accepted(0)).toBe(false);
      expect(accepted(1)).toBe(true);
      expect(accepted(100)).toBe(true);
      expect(accepted(101)).toBe(false);
    }
  });
  it("arbitrary position: x 0 to the image width, y 0 to its height", () => {
    expect(positionAccepted(0, 0, 640, 480)).toBe(true);
    expect(positionAccepted(640, 480, 640, 480)).toBe(true);
    expect(positionAccepted(-1, 0, 640, 480)).toBe(false);
    expect(positionAccepted(0, -1, 640, 480)).toBe(false);
    expect(positionAccepted(641, 0, 640, 480)).toBe(false);
    expect(positionAccepted(0, 481, 640, 480)).toBe(false);
    expect(positionAccepted(Number.NaN, 0, 640, 480)).toBe(false);
  });
});

describe("resize (spec section 5)", () => {
  const photo = { width: 4000, height: 3000 };
  it("percent runs 1 to limit × 100 / longer side, capped at 200, and starts at 100 or the maximum", () => {
    expect(maxResizePercent(photo, 10000)).toBe(200); // 250 capped
    expect(maxResizePercent(photo, 5000)).toBe(125);
    expect(maxResizePercent({ width: 6000, height: 4000 }, 5000)).toBe(83);
    expect(initialResize(photo, 10000)).toEqual({ width: 4000, height: 3000, percent: 100, locked: true });
    expect(initialResize({ width: 6000, height: 4000 }, 5000)).toEqual({
      width: 4980,
      height: 3320,
      percent: 83,
      locked: true,
    });
    expect(resizeAccepted({ ...initialResize(photo, 5000), percent: 125 }, photo, 5000)).toBe(true);
    expect(resizeAccepted({ ...initialResize(photo, 5000), percent: 126 }, photo, 5000)).toBe(false);
    expect(resizeAccepted({ ...initialResize(photo, 5000), percent: 0 }, photo, 5000)).toBe(false);
    expect(resizeAccepted({ ...initialResize(photo, 5000), percent: 1 }, photo, 5000)).toBe(true);
  });
  it("width and height at least 1 and at most the maximum resize length", () => {
    const base = initialResize(photo, 10000);
    expect(resizeAccepted({ ...base, width: 1, height: 1 }, photo, 10000)).toBe(true);
    expect(resizeAccepted({ ...base, width: 0 }, photo, 10000)).toBe(false);
    expect(resizeAccepted({ ...base, height: 0 }, photo, 10000)).toBe(false);
    expect(resizeAccepted({ ...base, width: 10000 }, photo, 10000)).toBe(true);
    expect(resizeAccepted({ ...base, width: 10001 }, photo, 10000)).toBe(false);
    expect(resizeAccepted({ ...base, height: 5000 }, photo, 5000)).toBe(true);
    expect(resizeAccepted({ ...base, height: 5001 }, photo, 5000)).toBe(false);
  });
  it("with the lock on the other side and the percent follow, rounded, never below 1", () => {
    const base = initialResize(photo, 10000);
    expect(resizeWidth(base, 2000, photo)).toEqual({ width: 2000, height: 1500, percent: 50, locked: true });
    expect(resizeWidth(base, 1333, photo)).toEqual({ width: 1333, height: 1000, percent: 33, locked: true });
    expect(resizeHeight(base, 1000, photo)).toEqual({ width: 1333, height: 1000, percent: 33, locked: true });
    expect(resizeWidth(base, 1, photo)).toEqual({ width: 1, height: 1, percent: 1, locked: true });
    const wide = { width: 10000, height: 10 };
    expect(resizeWidth(initialResize(wide, 10000), 100, wide)).toMatchObject({ height: 1, percent: 1 });
    expect(resizePercent(base, 25, photo)).toEqual({ width: 1000, height: 750, percent: 25, locked: true });
    expect(resizePercent(initialResize(wide, 10000), 1, wide)).toMatchObject({ width: 100, height: 1 });
  });
  it("with the lock off the sides are independent", () => {
    const free = { ...initialResize(photo, 10000), locked: false };
    expect(resizeWidth(free, 2000, photo)).toEqual({ ...free, width: 2000 });
    expect(resizeHeight(free, 100, photo)).toEqual({ ...free, height: 100 });
  });
});

describe("rotate, colour, crop, zoom (spec sections 4 and 5)", () => {
  it("rotation applies only if the sum is not 0 or a flip is on; white fill for non-PNG", () => {
    expect(rotationSum(0, 0)).toBe(0);
    expect(rotationSum(-180, 0)).toBe(180);
    expect(rotationSum(180, 90)).toBe(270);
    expect(rotationSum(-90, 90)).toBe(0);
    expect(rotationSum(1, 0)).toBe(1);
    expect(rotationSum(0, 360)).toBe(0);
    expect(rotationApplies(0, false, false)).toBe(false);
    expect(rotationApplies(1, false, false)).toBe(true);
    expect(rotationApplies(0, true, false)).toBe(true);
    expect(rotationApplies(0, false, true)).toBe(true);
    expect(rotationFill("image/jpeg")).toBe("#ffffff");
    expect(rotationFill("image/bmp")).toBe("#ffffff");
    expect(rotationFill("image/png")).toBeNull();
  });
  it("brightness and contrast -50 to 50, sharpening 0 to 20", () => {
    expect(colourAccepted(-50, 50, 0)).toBe(true);
    expect(colourAccepted(50, -50, 20)).toBe(true);
    expect(colourAccepted(-51, 0, 0)).toBe(false);
    expect(colourAccepted(51, 0, 0)).toBe(false);
    expect(colourAccepted(0, -51, 0)).toBe(false);
    expect(colourAccepted(0, 51, 0)).toBe(false);
    expect(colourAccepted(0, 0, -1)).toBe(false);
    expect(colourAccepted(0, 0, 21)).toBe(false);
    expect(colourChanges(0, 0, 0)).toBe(false);
    expect(colourChanges(0, 0, 1)).toBe(true);
  });
  it("crop applies only if the box differs from the whole image; the eight aspect choices", () => {
    const image = { width: 640, height: 480 };
    expect(cropApplies({ x: 0, y: 0, width: 640, height: 480 }, image)).toBe(false);
    expect(cropApplies({ x: 0.2, y: -0.3, width: 640.4, height: 480.2 }, image)).toBe(false);
    expect(cropApplies({ x: 0, y: 0, width: 639, height: 480 }, image)).toBe(true);
    expect(cropApplies({ x: 1, y: 0, width: 639, height: 480 }, image)).toBe(true);
    expect(clampCropBox({ x: 600, y: 470, width: 100, height: 100 }, image)).toEqual({
      x: 600,
      y: 470,
      width: 40,
      height: 10,
    });
    expect(CROP_ASPECTS).toEqual(["free", "16:9", "4:3", "3:2", "1:1", "2:3", "3:4", "9:16"]);
    expect(aspectRatioOf("free")).toBeNaN();
    expect(aspectRatioOf("16:9")).toBeCloseTo(16 / 9);
    expect(aspectRatioOf("9:16")).toBeCloseTo(9 / 16);
  });
  it("zoom 1 to 300: step 1 below 10, then 5 for images of 3000 px or more, otherwise 10", () => {
    expect(zoomStep(9, 2999)).toBe(1);
    expect(zoomStep(9, 3000)).toBe(1);
    expect(zoomStep(10, 2999)).toBe(10);
    expect(zoomStep(10, 3000)).toBe(5);
    expect(zoomIn(9, 1000)).toBe(10);
    expect(zoomIn(10, 1000)).toBe(20);
    expect(zoomIn(10, 4000)).toBe(15);
    expect(zoomIn(295, 4000)).toBe(300);
    expect(zoomIn(300, 4000)).toBe(300);
    expect(zoomIn(295, 1000)).toBe(300);
    expect(zoomOut(10, 1000)).toBe(9);
    expect(zoomOut(2, 1000)).toBe(1);
    expect(zoomOut(1, 1000)).toBe(1);
    expect(zoomOut(20, 1000)).toBe(10);
    expect(zoomOut(15, 1000)).toBe(10);
    expect(zoomOut(20, 3000)).toBe(15);
  });
});

describe("crop boxes from the working copy", () => {
  it("are made exact for their aspect ratio on the full-resolution image", () => {
    const image = { width: 3264, height: 2448 };
    // Boxes as [x, y, width, height]: the box drawn, and the box cut.
    const cases: [CropAspect, number[], number[]][] = [
      ["16:9", [0, 306, 3264, 1848], [0, 306, 3264, 1836]],
      // No room below: the height is kept and the width follows.
      ["16:9", [0, 1000, 3264, 1448], [0, 1000, 2574, 1448]],
      ["free", [10.4, 20.6, 100.2, 51], [10, 21, 100, 51]],
    ];
    const box = ([x = 0, y = 0, width = 0, height = 0]: number[]): Box => ({ x, y, width, height });
    for (const [aspect, drawn, cut] of cases) expect(exactAspect(box(drawn), aspect, image)).toEqual(box(cut));
    expect(exactAspect({ x: 0, y: 0, width: 2448, height: 2440 }, "1:1", image)).toMatchObject({
      width: 2448,
      height: 2448,
    });
  });
});
