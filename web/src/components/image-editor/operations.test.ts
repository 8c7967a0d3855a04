import { describe, expect, it } from "vitest";
import {
  colourLinear,
  colourPixels,
  outputMime,
  rotatedSize,
  sharpenKernel,
  textBox,
  watermarkOrigin,
  wrapText,
} from "./operations";

describe("operation geometry", () => {
  it("quarter turns swap the sides exactly; free angles take the bounding box", () => {
    expect(rotatedSize(640, 480, 90)).toEqual({ width: 480, height: 640 });
    expect(rotatedSize(640, 480, -90)).toEqual({ width: 480, height: 640 });
    expect(rotatedSize(640, 480, 180)).toEqual({ width: 640, height: 480 });
    expect(rotatedSize(640, 480, 360)).toEqual({ width: 640, height: 480 });
    expect(rotatedSize(100, 100, 45)).toEqual({ width: 141, height: 141 });
  });

  it("places the watermark box in the six positions with a 2 % margin", () => {
    const image = { width: 1000, height: 500 };
    const box = { width: 100, height: 50 };
    const at = { x: 123, y: 45 };
    expect(watermarkOrigin("upper-left", image, box, at)).toEqual({ x: 10, y: 10 });
    expect(watermarkOrigin("upper-right", image, box, at)).toEqual({ x: 890, y: 10 });
    expect(watermarkOrigin("lower-right", image, box, at)).toEqual({ x: 890, y: 440 });
    expect(watermarkOrigin("lower-left", image, box, at)).toEqual({ x: 10, y: 440 });
    expect(watermarkOrigin("center", image, box, at)).toEqual({ x: 450, y: 225 });
    expect(watermarkOrigin("arbitrary", image, box, at)).toEqual({ x: 123, y: 45 });
  });

  it("wraps text by characters inside the box width", () => {
    const measure = (line: string) => line.length * 10;
    expect(wrapText("abcdef", 30, measure)).toEqual(["abc", "def"]);
    expect(wrapText("新华社电", 25, measure)).toEqual(["新华", "社电"]);
    expect(wrapText("a\nb", 100, measure)).toEqual(["a", "b"]);
    const box = textBox(
      { type: "text", text: "abcdef", textWidth: 46, fontSize: 12, fontFamily: "x", color: "#fff", background: "#000" },
      measure,
    );
    // padding 3 each side leaves 40 px: four characters a line; two lines of 15 px plus padding.
    expect(box).toEqual({ width: 46, height: 36, lines: ["abcd", "ef"] });
  });
});

describe("colour", () => {
  it("brightness adds 2.55 per step, contrast scales around 128", () => {
    expect(colourLinear(0, 0)).toEqual({ a: 1, b: 0 });
    expect(colourLinear(50, 0)).toEqual({ a: 1, b: 127.5 });
    expect(colourLinear(0, 50)).toEqual({ a: 1.5, b: -64 });
    expect(colourLinear(0, -50)).toEqual({ a: 0.5, b: 64 });
    const pixels = new Uint8ClampedArray([100, 128, 200, 77]);
    colourPixels(pixels, 1, 1, { kind: "colour", brightness: 10, contrast: 50, sharpen: 0 });
    expect([...pixels]).toEqual([112, 154, 255, 77]);
  });

  it("sharpening raises the difference to the neighbours and keeps flat areas", () => {
    expect(sharpenKernel(20)).toEqual([0, -1, 0, -1, 5, -1, 0, -1, 0]);
    const flat = new Uint8ClampedArray(3 * 3 * 4).fill(90);
    colourPixels(flat, 3, 3, { kind: "colour", brightness: 0, contrast: 0, sharpen: 20 });
    expect([...flat].every((value) => value === 90)).toBe(true);
    const dot = new Uint8ClampedArray(3 * 3 * 4).fill(100);
    dot[4 * 4] = 120; // red of the centre pixel
    colourPixels(dot, 3, 3, { kind: "colour", brightness: 0, contrast: 0, sharpen: 10 });
    expect(dot[4 * 4]).toBe(160); // 120 + 0.5 × (4 × 120 − 400)
    expect(dot[1 * 4]).toBe(90); // the pixel above it, its own edge repeated: 100 + 0.5 × (4 × 100 − 100 − 120 − 100 − 100)
  });

  it("saves PNG and WebP as themselves, everything else as JPEG", () => {
    expect(outputMime("image/png")).toBe("image/png");
    expect(outputMime("image/webp")).toBe("image/webp");
    expect(outputMime("image/jpeg")).toBe("image/jpeg");
    expect(outputMime("image/bmp")).toBe("image/jpeg");
    expect(outputMime("image/gif")).toBe("image/jpeg");
  });
});
