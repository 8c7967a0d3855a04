import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { decodeHeif } from "./heif-decoder.js";
import { openImage, renderImageDerivatives, renderThumbnail } from "./images.js";

const corpus = path.resolve(import.meta.dirname, "../../../../shared/corpus/exif-samples");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dams-images-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("renderImageDerivatives", () => {
  it("writes a square thumbnail and a bounded preview, each as WebP and JPEG", async () => {
    const out = path.join(dir, "canon");
    const result = await renderImageDerivatives(path.join(corpus, "jpg/Canon_40D.jpg"), out, { previewLongEdge: 60 });
    expect(result).toMatchObject({ format: "jpeg", width: 100, height: 68, hasAlpha: false });
    const byName = Object.fromEntries(
      result.renditions.map((rendition) => [`${rendition.kind}.${rendition.format}`, rendition]),
    );
    expect(Object.keys(byName).sort()).toEqual(["preview.jpeg", "preview.webp", "thumbnail.jpeg", "thumbnail.webp"]);
    for (const rendition of result.renditions) {
      const written = await sharp(rendition.path).metadata();
      expect(written.format).toBe(rendition.format);
      expect([written.width, written.height]).toEqual([rendition.width, rendition.height]);
      expect(written.exif).toBeUndefined();
      expect(rendition.sizeBytes).toBe(fs.statSync(rendition.path).size);
    }
    expect(byName["preview.jpeg"]).toMatchObject({ width: 60, height: 41 });
    expect(byName["thumbnail.webp"]).toMatchObject({ width: 320, height: 320 });
  });

  it("applies the EXIF orientation: every portrait_N sample comes out upright and alike", async () => {
    const reference = await renderImageDerivatives(
      path.join(corpus, "jpg/orientation/portrait_1.jpg"),
      path.join(dir, "p1"),
    );
    const referencePixels = await sharp(path.join(dir, "p1/preview.jpg"))
      .resize(8, 8, { fit: "fill" })
      .greyscale()
      .raw()
      .toBuffer();
    for (const orientation of [3, 6, 8]) {
      const out = path.join(dir, `p${orientation}`);
      const result = await renderImageDerivatives(
        path.join(corpus, `jpg/orientation/portrait_${orientation}.jpg`),
        out,
      );
      expect([result.width, result.height]).toEqual([reference.width, reference.height]);
      const pixels = await sharp(path.join(out, "preview.jpg"))
        .resize(8, 8, { fit: "fill" })
        .greyscale()
        .raw()
        .toBuffer();
      const difference =
        pixels.reduce((sum, value, index) => sum + Math.abs(value - (referencePixels[index] ?? 0)), 0) / pixels.length;
      expect(difference, `portrait_${orientation}`).toBeLessThan(12);
    }
  });

  it("decodes HEVC-coded HEIC (through libheif WASM) and TIFF", async () => {
    const heic = await renderImageDerivatives(path.join(corpus, "heic/samplefilehub.heif"), path.join(dir, "heic"));
    expect(heic).toMatchObject({ format: "heif", width: 640, height: 426 });
    const preview = await sharp(path.join(dir, "heic/preview.jpg")).stats();
    // A real photo, not a blank buffer.
    expect(preview.channels[0]?.stdev).toBeGreaterThan(10);
    const tiff = await renderImageDerivatives(path.join(corpus, "tiff/Tless0.tiff"), path.join(dir, "tiff"));
    expect(tiff.format).toBe("tiff");
  });

  it("stops a HEIC decode that passes its time limit (it runs in a worker thread that can be ended)", async () => {
    const data = fs.readFileSync(path.join(corpus, "heic/samplefilehub.heif"));
    await expect(decodeHeif(data, 100_000_000, 1)).rejects.toMatchObject({ kind: "timeout" });
    const decoded = await decodeHeif(data, 100_000_000);
    expect([decoded.width, decoded.height, decoded.pixels.length]).toEqual([640, 426, 640 * 426 * 4]);
    await expect(decodeHeif(data, 100_000)).rejects.toMatchObject({ kind: "too_large" });
  });

  it("flattens transparency onto white for JPEG and keeps it in WebP", async () => {
    const input = path.join(dir, "alpha.png");
    await sharp({ create: { width: 40, height: 40, channels: 4, background: { r: 255, g: 0, b: 0, alpha: 0 } } })
      .png()
      .toFile(input);
    const result = await renderImageDerivatives(input, path.join(dir, "alpha"));
    expect(result.hasAlpha).toBe(true);
    const jpeg = await sharp(path.join(dir, "alpha/thumbnail.jpg")).raw().toBuffer();
    expect([...jpeg.subarray(0, 3)]).toEqual([255, 255, 255]);
    expect((await sharp(path.join(dir, "alpha/thumbnail.webp")).metadata()).hasAlpha).toBe(true);
  });

  it("reads 16-bit images as 8-bit renditions with the right colours", async () => {
    const input = path.join(dir, "deep.png");
    await sharp({ create: { width: 24, height: 24, channels: 3, background: "#2080c0" } })
      .toColourspace("rgb16")
      .png()
      .toFile(input);
    expect((await sharp(input).metadata()).depth).toBe("ushort");
    await renderImageDerivatives(input, path.join(dir, "deep"));
    const pixel = await sharp(path.join(dir, "deep/preview.webp")).raw().toBuffer();
    const [red = 0, green = 0, blue = 0] = pixel;
    expect(Math.abs(red - 0x20) + Math.abs(green - 0x80) + Math.abs(blue - 0xc0)).toBeLessThan(12);
  });

  it("converts to sRGB", async () => {
    const input = path.join(dir, "cmyk.jpg");
    await sharp({ create: { width: 32, height: 32, channels: 3, background: "#2a6ebb" } })
      .toColourspace("cmyk")
      .jpeg()
      .toFile(input);
    expect((await sharp(input).metadata()).space).toBe("cmyk");
    await renderImageDerivatives(input, path.join(dir, "cmyk"));
    expect((await sharp(path.join(dir, "cmyk/preview.jpg")).metadata()).space).toBe("srgb");
  });
});

describe("renderThumbnail and openImage", () => {
  it("renders one square thumbnail from the original", async () => {
    const out = path.join(dir, "single.jpg");
    const rendition = await renderThumbnail(path.join(corpus, "jpg/gps/DSCN0010.jpg"), out, { size: 128 });
    expect(await sharp(out).metadata()).toMatchObject({ width: 128, height: 128, format: "jpeg" });
    expect(rendition.sizeBytes).toBeGreaterThan(0);
  });

  it("gives the upright size without decoding", async () => {
    const opened = await openImage(path.join(corpus, "jpg/orientation/landscape_6.jpg"));
    expect([opened.width, opened.height]).toEqual([600, 450]);
  });
});
