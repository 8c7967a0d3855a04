import { watermarkOrigin } from "@shared/watermark";
import { describe, expect, it } from "vitest";
import { colourLinear, colourPixels, outputMime, rotatedSize, sharpenKernel, textBox, wrapText } from "./operations";

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

  it("sharpens every pixel from its neighbours as they were before, at every edge and corner", () => {
    // A 5×4 image of varied values; the expected result written out as the kernel over an unchanged copy.
    const width = 5;
    const height = 4;
    const pixels = Uint8ClampedArray.from({ length: width * height * 4 }, (_, i) => (i * 37 + (i >> 2) * 11) % 256);
    const before = pixels.slice();
    const k = 7 / 20;
    const at = (x: number, y: number, c: number) =>
      before[(Math.min(height - 1, Math.max(0, y)) * width + Math.min(width - 1, Math.max(0, x))) * 4 + c]!;
    const expected = before.slice();
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        for (let c = 0; c < 3; c++) {
          const centre = at(x, y, c);
          expected[(y * width + x) * 4 + c] =
            centre + k * (4 * centre - at(x, y - 1, c) - at(x, y + 1, c) - at(x - 1, y, c) - at(x + 1, y, c));
        }
      }
    }
    colourPixels(pixels, width, height, { kind: "colour", brightness: 0, contrast: 0, sharpen: 7 });
    expect([...pixels]).toEqual([...expected]);
    // Alpha untouched.
    expect(pixels.filter((_, i) => i % 4 === 3)).toEqual(before.filter((_, i) => i % 4 === 3));
  });

  it("maps every channel value as a·v + b, rounded and clamped", () => {
    const pixels = Uint8ClampedArray.from({ length: 256 * 4 }, (_, i) => (i % 4 === 3 ? 200 : i >> 2));
    colourPixels(pixels, 256, 1, { kind: "colour", brightness: -12, contrast: 33, sharpen: 0 });
    const { a, b } = colourLinear(-12, 33);
    for (let v = 0; v < 256; v++) {
      const expected = Math.min(255, Math.max(0, a * v + b));
      // Uint8ClampedArray rounds half to even; away from halves it is ordinary rounding.
      expect(Math.abs(pixels[v * 4]! - expected)).toBeLessThanOrEqual(0.5);
      expect(pixels[v * 4 + 3]).toBe(200);
    }
  });

  it("saves PNG and WebP as themselves, everything else as JPEG", () => {
    expect(outputMime("image/png")).toBe("image/png");
    expect(outputMime("image/webp")).toBe("image/webp");
    expect(outputMime("image/jpeg")).toBe("image/jpeg");
    expect(outputMime("image/bmp")).toBe("image/jpeg");
    expect(outputMime("image/gif")).toBe("image/jpeg");
  });
});
