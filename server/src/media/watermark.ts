import sharp from "sharp";
import { watermarkOrigin as corner, type TextMark, textPadding, type WatermarkPosition } from "../shared/watermark.js";
import { toMediaError } from "./images.js";

export { WATERMARK_FONTS, WATERMARK_POSITIONS, type WatermarkPosition } from "../shared/watermark.js";

/**
 * The watermark of spec section 3, drawn on the server: the same model and
 * placement as the image editor's canvas (both from server/src/shared/
 * watermark.ts): six positions with a margin of 2 % of the shorter side, a
 * text box of `textWidth` with a padding of a quarter of the font size and
 * character wrapping, an image mark at `sizePercent` of its own size, one
 * opacity for the whole box. Text is set by Pango (through sharp) with the
 * Noto CJK fonts, so Chinese renders with real glyphs.
 */

export type TextMarkSpec = TextMark;

export interface ImageMarkSpec {
  type: "image";
  /** The watermark image's bytes (PNG or JPEG). */
  image: Buffer;
  /** 1..100 % of the image's own size. */
  sizePercent: number;
}

export interface WatermarkSpec {
  mark: TextMarkSpec | ImageMarkSpec;
  position: WatermarkPosition;
  /** 1..100 */
  opacity: number;
  /** The box's top-left corner for the arbitrary position, in pixels of the output. */
  x: number;
  y: number;
}

/** A rendered mark: an RGBA PNG (opacity applied) and where it goes on the frame. */
export interface PlacedMark {
  png: Buffer;
  width: number;
  height: number;
  left: number;
  top: number;
}

/** The box's top-left corner for a position (the editor's `watermarkOrigin`), kept inside the frame. */
export function watermarkOrigin(
  position: WatermarkPosition,
  frame: { width: number; height: number },
  box: { width: number; height: number },
  arbitrary: { x: number; y: number },
): { left: number; top: number } {
  const at = corner(position, frame, box, arbitrary);
  const clamp = (value: number, max: number) => Math.max(0, Math.min(value, Math.max(0, max)));
  return { left: clamp(at.x, frame.width - box.width), top: clamp(at.y, frame.height - box.height) };
}

/**
 * The Pango family list of an editor font: the Chinese families (not
 * installed on a Debian server) become Noto Sans or Serif CJK SC; Latin ones
 * are asked for by name with Noto Sans CJK SC behind them, so Chinese in a
 * Latin-font mark still has glyphs.
 */
export function pangoFamilies(family: string): string {
  if (family === "SimSun" || family === "KaiTi" || family === "FangSong") return "Noto Serif CJK SC";
  if (family === "Microsoft YaHei" || family === "SimHei") return "Noto Sans CJK SC";
  return `${family.replace(/[^A-Za-z0-9 ]/g, "")},Noto Sans CJK SC`;
}

/** Text as Pango markup: everything escaped, so a mark can never carry markup of its own. */
export function pangoEscape(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

const HEX = /^#[0-9a-fA-F]{6}$/;
const hexColour = (value: string): string => (HEX.test(value) ? value : "#000000");

/** Multiplies the alpha of an RGBA image by `opacity` %. */
async function withOpacity(rgba: Buffer, opacity: number): Promise<Buffer> {
  if (opacity >= 100) return sharp(rgba).png().toBuffer();
  const alpha = Math.max(0, Math.min(100, opacity)) / 100;
  return sharp(rgba).ensureAlpha().linear([1, 1, 1, alpha], [0, 0, 0, 0]).png().toBuffer();
}

async function textBoxPng(mark: TextMarkSpec, frameWidth: number): Promise<Buffer> {
  const padding = textPadding(mark.fontSize);
  const boxWidth = Math.max(1, Math.min(mark.textWidth, frameWidth));
  const innerWidth = Math.max(1, boxWidth - 2 * padding);
  const text = await sharp({
    text: {
      text: `<span foreground="${hexColour(mark.color)}">${pangoEscape(mark.text)}</span>`,
      font: `${pangoFamilies(mark.fontFamily)} ${mark.fontSize}`,
      dpi: 72,
      width: innerWidth,
      wrap: "char",
      rgba: true,
    },
  })
    .png()
    .toBuffer({ resolveWithObject: true });
  const textWidth = Math.min(text.info.width, innerWidth);
  const cropped =
    text.info.width > innerWidth
      ? await sharp(text.data).extract({ left: 0, top: 0, width: textWidth, height: text.info.height }).toBuffer()
      : text.data;
  return sharp({
    create: {
      width: boxWidth,
      height: text.info.height + 2 * padding,
      channels: 4,
      background: hexColour(mark.background),
    },
  })
    .composite([{ input: cropped, left: padding, top: padding }])
    .png()
    .toBuffer();
}

async function imageBoxPng(mark: ImageMarkSpec): Promise<Buffer> {
  const source = sharp(mark.image, { limitInputPixels: 50_000_000, failOn: "error" });
  const meta = await source.metadata();
  const width = Math.max(1, Math.round(((meta.width ?? 1) * mark.sizePercent) / 100));
  const height = Math.max(1, Math.round(((meta.height ?? 1) * mark.sizePercent) / 100));
  const resized = source.rotate().ensureAlpha();
  return (mark.sizePercent === 100 ? resized : resized.resize(width, height, { fit: "fill" })).png().toBuffer();
}

/** Draws the mark for a frame of the given size and places it; a box larger than the frame is shrunk into it. */
export async function renderMark(spec: WatermarkSpec, frame: { width: number; height: number }): Promise<PlacedMark> {
  try {
    let png = spec.mark.type === "text" ? await textBoxPng(spec.mark, frame.width) : await imageBoxPng(spec.mark);
    const meta = await sharp(png).metadata();
    let width = meta.width ?? 1;
    let height = meta.height ?? 1;
    if (width > frame.width || height > frame.height) {
      const resized = await sharp(png)
        .resize(frame.width, frame.height, { fit: "inside" })
        .png()
        .toBuffer({ resolveWithObject: true });
      png = resized.data;
      width = resized.info.width;
      height = resized.info.height;
    }
    const placed = watermarkOrigin(spec.position, frame, { width, height }, spec);
    return { png: await withOpacity(png, spec.opacity), width, height, ...placed };
  } catch (error) {
    throw toMediaError(error);
  }
}

/** A sample photograph-like picture for previews: sky, hills and a sun, drawn by libvips (no file shipped). */
export async function sampleImage(width = 960, height = 640): Promise<Buffer> {
  const sky = await sharp({ create: { width, height, channels: 3, background: "#6fa8dc" } })
    .composite([
      {
        input: await sharp({ create: { width, height: Math.round(height * 0.45), channels: 3, background: "#4f7b3a" } })
          .png()
          .toBuffer(),
        left: 0,
        top: Math.round(height * 0.55),
      },
      {
        input: await sharp({
          create: {
            width: Math.round(width * 0.12),
            height: Math.round(width * 0.12),
            channels: 3,
            background: "#f6d04d",
          },
        })
          .png()
          .toBuffer(),
        left: Math.round(width * 0.7),
        top: Math.round(height * 0.12),
      },
    ])
    .png()
    .toBuffer();
  return sky;
}

/** The sample picture with the mark on it, as a JPEG: the settings page's live preview. */
export async function previewWatermark(spec: WatermarkSpec | null): Promise<Buffer> {
  const base = sharp(await sampleImage());
  if (!spec) return base.jpeg({ quality: 85 }).toBuffer();
  const mark = await renderMark(spec, { width: 960, height: 640 });
  return base
    .composite([{ input: mark.png, left: mark.left, top: mark.top }])
    .jpeg({ quality: 85 })
    .toBuffer();
}
