/**
 * The colour operation's pixel maths, the same sharp does with `linear` and
 * `convolve` (the pixel tests compare them): brightness and contrast as one
 * linear map, then a 3×3 sharpening.
 */
import type { ColourOperation } from "./operations";

/** Brightness and contrast as one linear map per channel, the same a·x + b that sharp's `linear` applies. */
export function colourLinear(brightness: number, contrast: number): { a: number; b: number } {
  const a = (100 + contrast) / 100;
  return { a, b: 128 * (1 - a) + (brightness * 255) / 100 };
}

/** The 3×3 sharpening kernel: the identity plus strength × the negative Laplacian. */
export function sharpenKernel(sharpen: number): number[] {
  const k = sharpen / 20;
  return [0, -k, 0, -k, 1 + 4 * k, -k, 0, -k, 0];
}

/** Applies the colour settings to RGBA pixels in place (alpha untouched). */
export function colourPixels(data: Uint8ClampedArray, width: number, height: number, op: ColourOperation): void {
  const { a, b } = colourLinear(op.brightness, op.contrast);
  if (a !== 1 || b !== 0) {
    // The map of each of the 256 values, rounded and clamped as the pixel array stores them.
    const map = new Uint8ClampedArray(256);
    for (let v = 0; v < 256; v++) map[v] = a * v + b;
    for (let i = 0; i < data.length; i += 4) {
      data[i] = map[data[i]!]!;
      data[i + 1] = map[data[i + 1]!]!;
      data[i + 2] = map[data[i + 2]!]!;
    }
  }
  if (op.sharpen !== 0) sharpenPixels(data, width, height, op.sharpen / 20);
}

/**
 * The 3×3 sharpening in place, edges repeated. A row is sharpened from copies of itself and of the row
 * above as they were before (the row below is not written yet), so two rows are copied, not the image.
 */
function sharpenPixels(data: Uint8ClampedArray, width: number, height: number, k: number): void {
  const row = width * 4;
  let above = new Uint8ClampedArray(row);
  let current = new Uint8ClampedArray(row);
  for (let y = 0; y < height; y++) {
    const start = y * row;
    current.set(data.subarray(start, start + row));
    const up = y === 0 ? current : above;
    const down = y === height - 1 ? current : data.subarray(start + row, start + 2 * row);
    for (let x = 0; x < width; x++) {
      const i = x * 4;
      const left = x === 0 ? i : i - 4;
      const right = x === width - 1 ? i : i + 4;
      for (let c = 0; c < 3; c++) {
        const centre = current[i + c]!;
        data[start + i + c] =
          centre + k * (4 * centre - up[i + c]! - down[i + c]! - current[left + c]! - current[right + c]!);
      }
    }
    [above, current] = [current, above];
  }
}
