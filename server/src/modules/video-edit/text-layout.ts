/**
 * Text on the picture: titles, lower thirds, caption cues, slide captions and
 * a text logo, each as drawtext filters. drawtext does not wrap, so lines are
 * broken here by an estimate of the glyphs' widths (CJK characters are one em
 * wide, Latin about half); sizes are given at 1080 lines and scaled with the
 * frame. Pure: it returns filter text.
 */
import type { Logo, TextOverlay } from "./edl.schema.js";
import { activeBetween, ffmpegColour, filter, formatNumber } from "./ffmpeg-filter.js";

export interface Frame {
  width: number;
  height: number;
}

/** Font sizes in pixels at 1080 lines. */
export const TEXT_SIZES = { title: 72, lowerThirdName: 52, lowerThirdRole: 36, caption: 44, slideCaption: 40 } as const;

const WIDE =
  /[\u1100-\u115F\u2E80-\u303E\u3040-\uA4CF\uAC00-\uD7A3\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6]/u;

/** The estimated width of a string in ems. */
export function textWidthEm(text: string): number {
  let width = 0;
  for (const char of text) width += WIDE.test(char) ? 1 : char === " " ? 0.3 : 0.56;
  return width;
}

/**
 * Breaks text into lines no wider than `maxEm`: at spaces where a line has
 * them, anywhere between CJK characters, and inside a word only when the word
 * alone is too wide. Existing line breaks are kept.
 */
export function wrapLines(text: string, maxEm: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.replace(/\r\n?/g, "\n").split("\n")) {
    let line = "";
    // Tokens: a run of non-space non-CJK characters, a space, or one CJK character.
    for (const token of paragraph.match(/[^\s\u1100-\uFFE6]+|\s|[\u1100-\uFFE6]/gu) ?? []) {
      if (line === "" && token.trim() === "") continue;
      if (textWidthEm(line + token) <= maxEm) {
        line += token;
        continue;
      }
      if (line.trim() !== "") lines.push(line.trimEnd());
      line = token.trim() === "" ? "" : token;
      // A single word wider than the line is cut by characters.
      while (textWidthEm(line) > maxEm && line.length > 1) {
        let cut = line.length - 1;
        while (cut > 1 && textWidthEm(line.slice(0, cut)) > maxEm) cut--;
        lines.push(line.slice(0, cut));
        line = line.slice(cut);
      }
    }
    lines.push(line.trimEnd());
  }
  while (lines.length > 1 && lines.at(-1) === "") lines.pop();
  return lines;
}

/** Pixels at this frame for a size given at 1080 lines (a vertical frame uses its width, so text fits across). */
export function scaledSize(frame: Frame, sizeAt1080: number): number {
  return Math.max(8, Math.round((sizeAt1080 * Math.min(frame.width, frame.height)) / 1080));
}

interface DrawTextSpec {
  text: string;
  /** Read the text from this file instead (drawtext takes it as it is; the tests compare the two). */
  textFile?: string;
  font: string;
  fontSize: number;
  colour: string;
  x: string;
  y: string;
  start: number;
  end: number;
  background?: string;
  opacity?: number;
}

/** One drawtext filter; the text is drawn literally (`expansion=none`, escaped for both graph levels). */
export function drawText(spec: DrawTextSpec): string {
  const padding = Math.round(spec.fontSize * 0.3);
  return filter("drawtext", {
    font: spec.font,
    ...(spec.textFile ? { textfile: spec.textFile } : { text: spec.text }),
    expansion: "none",
    fontsize: spec.fontSize,
    fontcolor: ffmpegColour(spec.colour, spec.opacity),
    line_spacing: Math.round(spec.fontSize * 0.2),
    x: spec.x,
    y: spec.y,
    ...(spec.background
      ? { box: 1, boxcolor: ffmpegColour(spec.background, spec.opacity), boxborderw: padding }
      : { borderw: Math.max(1, Math.round(spec.fontSize / 24)), bordercolor: "0x000000@0.6" }),
    enable: activeBetween(spec.start, spec.end),
  });
}

/** Margin from the frame's edges: 5 % of its shorter side (the title-safe area). */
export const safeMargin = (frame: Frame): number => Math.round(Math.min(frame.width, frame.height) * 0.05);

const centreX = "(w-text_w)/2";

/** A title or a lower third as drawtext filters (a lower third draws its name and its role). */
export function overlayFilters(overlay: TextOverlay, frame: Frame, font: string): string[] {
  const margin = safeMargin(frame);
  const usable = frame.width - 2 * margin;
  if (overlay.kind === "title") {
    const fontSize = scaledSize(frame, TEXT_SIZES.title * overlay.scale);
    const text = wrapLines(overlay.text.trim(), usable / fontSize).join("\n");
    const y =
      overlay.position === "top"
        ? String(margin)
        : overlay.position === "bottom"
          ? `h-text_h-${margin}`
          : "(h-text_h)/2";
    return [
      drawText({
        text,
        font,
        fontSize,
        colour: overlay.colour,
        background: overlay.background,
        x: centreX,
        y,
        start: overlay.start,
        end: overlay.end,
      }),
    ];
  }
  const nameSize = scaledSize(frame, TEXT_SIZES.lowerThirdName * overlay.scale);
  const roleSize = scaledSize(frame, TEXT_SIZES.lowerThirdRole * overlay.scale);
  const bandWidth = usable * 0.8;
  const name = wrapLines(overlay.text.trim(), bandWidth / nameSize).join("\n");
  const role = overlay.subtitle?.trim() ? wrapLines(overlay.subtitle.trim(), bandWidth / roleSize).join("\n") : "";
  const roleLines = role ? role.split("\n").length : 0;
  const roleBlock = roleLines ? Math.round(roleLines * roleSize * 1.2 + roleSize * 0.6) : 0;
  const bottom = Math.round(frame.height * 0.12);
  const common = { font, colour: overlay.colour, background: overlay.background ?? "#000000A0" };
  const filters = [
    drawText({
      ...common,
      text: name,
      fontSize: nameSize,
      x: String(margin),
      y: `h-text_h-${bottom + roleBlock}`,
      start: overlay.start,
      end: overlay.end,
    }),
  ];
  if (role)
    filters.push(
      drawText({
        ...common,
        text: role,
        fontSize: roleSize,
        x: String(margin),
        y: `h-text_h-${bottom}`,
        start: overlay.start,
        end: overlay.end,
      }),
    );
  return filters;
}

/** A caption cue or a slide's caption: centred near the bottom, white on a dark band. */
export function captionFilter(
  text: string,
  start: number,
  end: number,
  frame: Frame,
  font: string,
  sizeAt1080: number = TEXT_SIZES.caption,
): string {
  const fontSize = scaledSize(frame, sizeAt1080);
  const margin = safeMargin(frame);
  return drawText({
    text: wrapLines(text.trim(), (frame.width - 2 * margin) / fontSize).join("\n"),
    font,
    fontSize,
    colour: "#FFFFFF",
    background: "#00000099",
    x: centreX,
    y: `h-text_h-${Math.round(frame.height * 0.07)}`,
    start,
    end,
  });
}

/** Where a logo of size (w, h) goes, as overlay/drawtext x and y expressions (the image editor's placement). */
export function logoPlacement(
  logo: Pick<Logo, "position" | "x" | "y">,
  frame: Frame,
  names: { w: string; h: string; W: string; H: string },
): { x: string; y: string } {
  const margin = Math.round(Math.min(frame.width, frame.height) * 0.02);
  const { w, h, W, H } = names;
  switch (logo.position) {
    case "upper-left":
      return { x: String(margin), y: String(margin) };
    case "upper-right":
      return { x: `${W}-${w}-${margin}`, y: String(margin) };
    case "lower-right":
      return { x: `${W}-${w}-${margin}`, y: `${H}-${h}-${margin}` };
    case "lower-left":
      return { x: String(margin), y: `${H}-${h}-${margin}` };
    case "center":
      return { x: `(${W}-${w})/2`, y: `(${H}-${h})/2` };
    case "arbitrary":
      return {
        x: formatNumber(Math.round(logo.x * frame.width)),
        y: formatNumber(Math.round(logo.y * frame.height)),
      };
  }
}

/** A text logo (watermark type 2) for the whole edit. */
export function textLogoFilter(logo: Logo, frame: Frame, font: string, duration: number): string {
  // drawtext names the frame w/h and the text text_w/text_h.
  const placement = logoPlacement(logo, frame, { w: "text_w", h: "text_h", W: "w", H: "h" });
  return drawText({
    text: (logo.text ?? "").trim(),
    font,
    fontSize: scaledSize(frame, logo.fontSize),
    colour: logo.colour,
    background: logo.background,
    opacity: logo.opacity / 100,
    x: placement.x,
    y: placement.y,
    start: 0,
    end: duration + 1,
  });
}
