import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../config.js";
import { SystemMediaTools } from "./media-tools.js";
import { fitBox, type RenditionSpec } from "./preset-render.js";
import { pangoEscape, renderMark, WATERMARK_POSITIONS, type WatermarkSpec, watermarkOrigin } from "./watermark.js";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dams-preset-render-"));
const media = new SystemMediaTools(loadConfig({ DAMS_DATA_DIR: dir, DAMS_LOG_LEVEL: "silent" }).media);

const base: RenditionSpec = {
  format: "webp",
  maxWidth: 1200,
  maxHeight: null,
  quality: 90,
  srgb: true,
  metadata: "rights",
  videoBitrateKbps: 2000,
  audioBitrateKbps: 128,
  watermark: null,
};

async function pixel(file: string, x: number, y: number): Promise<number[]> {
  const { data, info } = await sharp(file).raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * info.channels;
  return [data[at]!, data[at + 1]!, data[at + 2]!];
}

const textMark = (text: string): WatermarkSpec => ({
  mark: {
    type: "text",
    text,
    textWidth: 400,
    fontSize: 40,
    fontFamily: "Microsoft YaHei",
    color: "#ffffff",
    background: "#000000",
  },
  position: "upper-left",
  opacity: 100,
  x: 0,
  y: 0,
});

async function whitePixels(spec: WatermarkSpec): Promise<number> {
  const mark = await renderMark(spec, { width: 1200, height: 800 });
  const { data, info } = await sharp(mark.png).raw().toBuffer({ resolveWithObject: true });
  let count = 0;
  for (let i = 0; i < data.length; i += info.channels) if (data[i]! > 200 && data[i + 3]! > 200) count++;
  return count;
}

describe("preset renditions (sharp, exiftool)", () => {
  let photo: string;
  /** 24 MP (6000 × 4000) mid grey, as a newsroom camera makes them (issue 17's preset test). */
  let camera: string;
  let logo: Buffer;
  beforeAll(async () => {
    photo = path.join(dir, "photo.jpg");
    // 3000 × 2000 mid grey with IPTC credit and caption written by exiftool.
    await sharp({ create: { width: 3000, height: 2000, channels: 3, background: "#808080" } })
      .jpeg({ quality: 90 })
      .toFile(photo);
    const { execFileSync } = await import("node:child_process");
    execFileSync("exiftool", [
      "-overwrite_original",
      "-charset",
      "iptc=UTF8",
      "-IPTC:CodedCharacterSet=UTF8",
      "-IPTC:Credit=新华社",
      "-IPTC:Caption-Abstract=台风登陆",
      "-IPTC:CopyrightNotice=© 2026 Xinhua",
      "-IPTC:City=Shanghai",
      "-EXIF:Make=Camera",
      photo,
    ]);
    camera = path.join(dir, "camera-24mp.jpg");
    await sharp({ create: { width: 6000, height: 4000, channels: 3, background: "#808080" } })
      .jpeg({ quality: 90 })
      .toFile(camera);
    logo = await sharp({ create: { width: 120, height: 60, channels: 4, background: "#ff0000ff" } })
      .png()
      .toBuffer();
  });
  afterAll(async () => {
    await media.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("fits a box without enlarging", () => {
    expect(fitBox(6000, 4000, 1200, null)).toEqual({ width: 1200, height: 800 });
    expect(fitBox(6000, 4000, 1200, 600)).toEqual({ width: 900, height: 600 });
    expect(fitBox(800, 600, 1200, 1200)).toEqual({ width: 800, height: 600 });
    expect(fitBox(1001, 601, 500, null, true)).toEqual({ width: 500, height: 300 });
  });

  it("places the mark in the six positions with the editor's 2 % margin, inside the frame", () => {
    const frame = { width: 1000, height: 500 };
    const box = { width: 100, height: 50 };
    const at = { x: 123, y: 45 };
    expect(WATERMARK_POSITIONS.map((position) => watermarkOrigin(position, frame, box, at))).toEqual([
      { left: 10, top: 10 },
      { left: 890, top: 10 },
      { left: 890, top: 440 },
      { left: 10, top: 440 },
      { left: 450, top: 225 },
      { left: 123, top: 45 },
    ]);
    expect(watermarkOrigin("arbitrary", frame, box, { x: 5000, y: 5000 })).toEqual({ left: 900, top: 450 });
  });

  it("escapes markup in the text and draws Chinese with real glyphs", async () => {
    expect(pangoEscape(`<b>"A&B'</b>`)).toBe("&#60;b&#62;&#34;A&#38;B&#39;&#60;/b&#62;");
    // Missing glyphs would be boxes of about the same ink; 中 carries far more than 一.
    const dense = await whitePixels(textMark("中中中中"));
    const thin = await whitePixels(textMark("一一一一"));
    expect(thin).toBeGreaterThan(50);
    expect(dense).toBeGreaterThan(thin * 2);
    // Markup stays text: the escaped tag is drawn, not applied (more ink than the bare word).
    expect(await whitePixels(textMark("<b>水印</b>"))).toBeGreaterThan(await whitePixels(textMark("水印")));
  });

  it("a 24 MP photo at 1200 px WebP with a text watermark in Chinese: size, format and the mark's pixels", async () => {
    const out = path.join(dir, "camera-text.webp");
    const mark: WatermarkSpec = { ...textMark("新华社 中文水印"), position: "lower-right" };
    const made = await media.presetRendition(camera, out, { ...base, watermark: mark });
    expect(made).toMatchObject({ mime: "image/webp", width: 1200, height: 800 });
    expect(await sharp(out).metadata()).toMatchObject({ format: "webp", width: 1200, height: 800 });
    // The box the mark takes in the frame: its black background and white glyphs are there, grey photo around it.
    const box = await renderMark(mark, { width: 1200, height: 800 });
    expect(box.left + box.width).toBeLessThanOrEqual(1200);
    expect(box.top + box.height).toBeLessThanOrEqual(800);
    const region = await sharp(out)
      .extract({ left: box.left, top: box.top, width: box.width, height: box.height })
      .raw()
      .toBuffer({ resolveWithObject: true });
    let white = 0;
    let black = 0;
    for (let i = 0; i < region.data.length; i += region.info.channels) {
      if (region.data[i]! > 200) white++;
      else if (region.data[i]! < 40) black++;
    }
    expect(white).toBeGreaterThan(200);
    expect(black).toBeGreaterThan(white);
    const outside = await pixel(out, box.left - 6, box.top + Math.floor(box.height / 2));
    expect(Math.abs(outside[0]! - 128)).toBeLessThan(12);
  });

  it("an image watermark in each of the six positions, a 24 MP photo at 1200 px WebP", async () => {
    for (const position of WATERMARK_POSITIONS) {
      const out = path.join(dir, `logo-${position}.webp`);
      const spec: RenditionSpec = {
        ...base,
        watermark: { mark: { type: "image", image: logo, sizePercent: 100 }, position, opacity: 100, x: 300, y: 200 },
      };
      const made = await media.presetRendition(camera, out, spec);
      expect(made).toMatchObject({ mime: "image/webp", width: 1200, height: 800 });
      expect((await sharp(out).metadata()).format).toBe("webp");
      const origin = watermarkOrigin(
        position,
        { width: 1200, height: 800 },
        { width: 120, height: 60 },
        { x: 300, y: 200 },
      );
      const [r, g, b] = await pixel(out, origin.left + 60, origin.top + 30);
      expect([r! > 200, g! < 60, b! < 60], `${position}: ${r},${g},${b}`).toEqual([true, true, true]);
      // Just outside the box the photo is untouched.
      const outside = await pixel(out, origin.left > 10 ? origin.left - 4 : origin.left + 124, origin.top + 30);
      expect(Math.abs(outside[0]! - 128), `${position} outside`).toBeLessThan(12);
    }
  });

  it("keeps credit, caption and copyright (IPTC in JPEG, XMP in WebP) unless told otherwise", async () => {
    const { execFileSync } = await import("node:child_process");
    const tags = (file: string) =>
      JSON.parse(
        execFileSync("exiftool", [
          "-j",
          "-charset",
          "iptc=UTF8",
          "-Credit",
          "-Caption-Abstract",
          "-Description",
          "-CopyrightNotice",
          "-Rights",
          "-City",
          "-Make",
          file,
        ]).toString(),
      )[0] as Record<string, unknown>;
    const jpeg = path.join(dir, "rights.jpg");
    await media.presetRendition(photo, jpeg, { ...base, format: "jpeg" });
    expect(tags(jpeg)).toMatchObject({
      Credit: "新华社",
      "Caption-Abstract": "台风登陆",
      CopyrightNotice: "© 2026 Xinhua",
    });
    expect(tags(jpeg).City).toBeUndefined();
    expect(tags(jpeg).Make).toBeUndefined();
    const webp = path.join(dir, "rights.webp");
    await media.presetRendition(photo, webp, base);
    expect(tags(webp)).toMatchObject({ Credit: "新华社", Description: "台风登陆", Rights: "© 2026 Xinhua" });
    const none = path.join(dir, "none.jpg");
    await media.presetRendition(photo, none, { ...base, format: "jpeg", metadata: "none" });
    expect(tags(none).Credit).toBeUndefined();
    const all = path.join(dir, "all.jpg");
    await media.presetRendition(photo, all, { ...base, format: "jpeg", metadata: "all" });
    expect(tags(all)).toMatchObject({ Credit: "新华社", City: "Shanghai", Make: "Camera" });
  });

  it("AVIF and PNG, and a video with a text watermark overlaid, audio as MP3", async () => {
    const avif = await media.presetRendition(photo, path.join(dir, "a.avif"), {
      ...base,
      format: "avif",
      maxWidth: 600,
    });
    expect(avif).toMatchObject({ mime: "image/avif", width: 600, height: 400 });
    const png = await media.presetRendition(photo, path.join(dir, "a.png"), { ...base, format: "png", maxWidth: 300 });
    expect(png).toMatchObject({ mime: "image/png", width: 300, height: 200 });
    const { execFileSync } = await import("node:child_process");
    const clip = path.join(dir, "clip.mp4");
    execFileSync("ffmpeg", [
      ...["-v", "error", "-y", "-f", "lavfi", "-i", "color=c=gray:size=640x360:rate=25:duration=1"],
      ...["-f", "lavfi", "-i", "sine=frequency=440:duration=1"],
      ...["-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", clip],
    ]);
    const video = await media.presetRendition(clip, path.join(dir, "v.mp4"), {
      ...base,
      format: "mp4",
      maxWidth: 320,
      watermark: { ...textMark("新华社"), position: "lower-right" },
    });
    expect(video).toMatchObject({ mime: "video/mp4", width: 320, height: 180 });
    const frame = path.join(dir, "frame.png");
    execFileSync("ffmpeg", ["-v", "error", "-y", "-i", video.path, "-frames:v", "1", frame]);
    // The box's padding, just inside its lower-right corner (margin 4 px at 180 px high), is black.
    const [r] = await pixel(frame, 320 - 4 - 3, 180 - 4 - 3);
    expect(r).toBeLessThan(40);
    expect((await pixel(frame, 10, 10))[0]).toBeGreaterThan(90);
    const mp3 = await media.presetRendition(clip, path.join(dir, "a.mp3"), { ...base, format: "mp3" });
    expect(mp3).toMatchObject({ mime: "audio/mpeg", width: null });
  });
});
