import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { renderImageDerivatives } from "./images.js";
import { hammingDistance, perceptualHash } from "./perceptual-hash.js";

const corpus = path.resolve(import.meta.dirname, "../../../../shared/corpus/exif-samples/jpg");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dams-phash-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("perceptualHash", () => {
  const original = path.join(corpus, "gps/DSCN0010.jpg");

  it("is 16 hex digits and the same for the same file", async () => {
    const hash = await perceptualHash(original);
    expect(hash).toMatch(/^[0-9a-f]{16}$/);
    expect(await perceptualHash(original)).toBe(hash);
  });

  it("stays near for a resized, re-encoded copy and is far for other photos", async () => {
    const copy = path.join(dir, "copy.webp");
    await sharp(original).resize(200).modulate({ brightness: 1.05 }).webp({ quality: 50 }).toFile(copy);
    const [originalHash, copyHash] = await Promise.all([perceptualHash(original), perceptualHash(copy)]);
    const near = hammingDistance(originalHash, copyHash);

    const others = ["Canon_40D.jpg", "Nikon_D70.jpg", "gps/DSCN0040.jpg", "orientation/landscape_1.jpg"];
    const far = await Promise.all(
      others.map(async (other) => hammingDistance(originalHash, await perceptualHash(path.join(corpus, other)))),
    );
    expect(near).toBeLessThanOrEqual(6);
    for (const distance of far) expect(distance).toBeGreaterThanOrEqual(18);
  });

  it("sees through the orientation flag: a turned copy with the matching EXIF orientation is the same picture", async () => {
    const upright = path.join(corpus, "orientation/landscape_1.jpg");
    const flagged = path.join(corpus, "orientation/landscape_6.jpg");
    expect(hammingDistance(await perceptualHash(upright), await perceptualHash(flagged))).toBeLessThanOrEqual(6);
  });

  it("is the same picture's hash when taken from the renditions' decode (the photo job decodes once)", async () => {
    for (const name of ["gps/DSCN0010.jpg", "Canon_40D.jpg", "orientation/landscape_6.jpg"]) {
      const file = path.join(corpus, name);
      const { perceptualHash: fromPreview } = await renderImageDerivatives(file, path.join(dir, "renditions"));
      expect(hammingDistance(fromPreview, await perceptualHash(file)), name).toBeLessThanOrEqual(2);
    }
  });

  it("counts differing bits", () => {
    expect(hammingDistance("0000000000000000", "0000000000000000")).toBe(0);
    expect(hammingDistance("ffffffffffffffff", "0000000000000000")).toBe(64);
    expect(hammingDistance("8000000000000001", "0000000000000000")).toBe(2);
    expect(() => hammingDistance("xyz", "0000000000000000")).toThrow(TypeError);
  });
});
