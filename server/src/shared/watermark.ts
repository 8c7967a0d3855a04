/**
 * The watermark model of spec sections 3, 5 and 9, as the server renders it
 * (server/src/media/watermark.ts), the presets store it and the image editor
 * draws it on its canvas: positions, fonts, limits, the default, and where a
 * box of a size goes on a frame. Shared with the web app (`@shared/watermark`):
 * plain values only (docs/architecture.md, "Shared modules").
 */

export const WATERMARK_POSITIONS = [
  "upper-left",
  "upper-right",
  "lower-right",
  "lower-left",
  "center",
  "arbitrary",
] as const;
export type WatermarkPosition = (typeof WATERMARK_POSITIONS)[number];

/** The editor's 13 font families (spec section 9: the first is the default). */
export const WATERMARK_FONTS = [
  "Microsoft YaHei",
  "SimSun",
  "SimHei",
  "KaiTi",
  "FangSong",
  "Arial",
  "Helvetica",
  "Times New Roman",
  "Georgia",
  "Verdana",
  "Tahoma",
  "Courier New",
  "Impact",
] as const;
export type WatermarkFont = (typeof WATERMARK_FONTS)[number];

/** Spec section 5's bounds (inclusive); the text is counted in characters, not UTF-16 units. */
export const WATERMARK_LIMITS = {
  textLength: 100,
  fontSize: { min: 1, max: 1000 },
  opacity: { min: 1, max: 100 },
  sizePercent: { min: 1, max: 100 },
} as const;

/** A watermark's settings as a preset stores them: type 1 image, 2 text. */
export interface WatermarkSettings {
  type: 1 | 2;
  position: WatermarkPosition;
  opacity: number;
  x: number;
  y: number;
  sizePercent: number;
  text: string;
  textWidth: number;
  fontSize: number;
  fontFamily: WatermarkFont;
  color: string;
  background: string;
}

/** Spec section 9: image type, lower-right, opacity 100, size 100, 30 px white text on black, the first font. */
export const DEFAULT_WATERMARK: Readonly<WatermarkSettings> = {
  type: 1,
  position: "lower-right",
  opacity: 100,
  x: 0,
  y: 0,
  sizePercent: 100,
  text: "",
  textWidth: 300,
  fontSize: 30,
  fontFamily: WATERMARK_FONTS[0],
  color: "#ffffff",
  background: "#000000",
};

/** A text mark as drawn: the text wraps by characters inside a box `textWidth` wide. */
export interface TextMark {
  type: "text";
  text: string;
  textWidth: number;
  fontSize: number;
  fontFamily: string;
  /** #rrggbb */
  color: string;
  background: string;
}

/** Distance of a corner watermark from the edges: 2 % of the shorter side. */
export const watermarkMargin = (width: number, height: number): number => Math.round(Math.min(width, height) * 0.02);
/** A text box's padding: a quarter of the font size. */
export const textPadding = (fontSize: number): number => Math.round(fontSize * 0.25);

/** The watermark box's top-left corner for a position; it may lie outside the frame when the box is larger. */
export function watermarkOrigin(
  position: WatermarkPosition,
  frame: { width: number; height: number },
  box: { width: number; height: number },
  arbitrary: { x: number; y: number },
): { x: number; y: number } {
  const margin = watermarkMargin(frame.width, frame.height);
  switch (position) {
    case "upper-left":
      return { x: margin, y: margin };
    case "upper-right":
      return { x: frame.width - box.width - margin, y: margin };
    case "lower-right":
      return { x: frame.width - box.width - margin, y: frame.height - box.height - margin };
    case "lower-left":
      return { x: margin, y: frame.height - box.height - margin };
    case "center":
      return { x: Math.round((frame.width - box.width) / 2), y: Math.round((frame.height - box.height) / 2) };
    case "arbitrary":
      return { x: Math.round(arbitrary.x), y: Math.round(arbitrary.y) };
  }
}
