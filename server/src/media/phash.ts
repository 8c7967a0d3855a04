import type { Sharp } from "sharp";
import { errorMessage, MediaError } from "./media-error.js";

const SIZE = 32;
const KEEP = 8;

/** cos((2x + 1) u π / 2N), computed once for the 32-point DCT. */
const cosines = Array.from({ length: KEEP }, (_, u) =>
  Array.from({ length: SIZE }, (_, x) => Math.cos(((2 * x + 1) * u * Math.PI) / (2 * SIZE))),
);

/**
 * DCT perceptual hash (pHash) of a decoding pipeline: the image in grey at
 * 32x32, its 2-D DCT, the 8x8 lowest frequencies, one bit each for "above
 * the median" (the DC term left out of the median). Re-encoding, resizing and
 * mild colour changes move few bits; a different picture moves about half.
 * The pipeline is an upright image (an original opened by openImage, or the
 * decoded preview the renditions are cut from: the same picture, so the same
 * hash within a bit or two). Returns 16 hex digits (64 bits).
 */
export async function hashOfImage(image: Sharp): Promise<string> {
  let pixels: Buffer;
  try {
    pixels = await image
      .flatten({ background: "#ffffff" })
      .greyscale()
      .resize(SIZE, SIZE, { fit: "fill", kernel: "lanczos3" })
      .raw({ depth: "uchar" })
      .toBuffer();
  } catch (error) {
    throw new MediaError("corrupt", `the image could not be decoded for its hash (${errorMessage(error)})`, {
      cause: error,
    });
  }
  const channels = pixels.length / (SIZE * SIZE);
  const value = (x: number, y: number) => pixels[(y * SIZE + x) * channels] ?? 0;

  // Separable DCT: rows first (only the KEEP lowest frequencies), then columns.
  const rows: number[][] = Array.from({ length: SIZE }, (_, y) =>
    cosines.map((cosine) => cosine.reduce((sum, c, x) => sum + c * value(x, y), 0)),
  );
  const coefficients: number[] = [];
  for (let v = 0; v < KEEP; v++)
    for (let u = 0; u < KEEP; u++)
      coefficients.push((cosines[v] ?? []).reduce((sum, c, y) => sum + c * (rows[y]?.[u] ?? 0), 0));

  const sorted = coefficients.slice(1).sort((a, b) => a - b);
  const median = ((sorted[31] ?? 0) + (sorted[32] ?? 0)) / 2;
  let hash = 0n;
  for (const coefficient of coefficients) hash = (hash << 1n) | (coefficient > median ? 1n : 0n);
  return hash.toString(16).padStart(16, "0");
}

/** Number of differing bits between two 16-hex-digit hashes (0 = same picture, ~32 = unrelated). */
export function hammingDistance(a: string, b: string): number {
  if (!/^[0-9a-f]{16}$/i.test(a) || !/^[0-9a-f]{16}$/i.test(b)) throw new TypeError("hashes must be 16 hex digits");
  let difference = BigInt(`0x${a}`) ^ BigInt(`0x${b}`);
  let count = 0;
  while (difference > 0n) {
    count += Number(difference & 1n);
    difference >>= 1n;
  }
  return count;
}
