/**
 * Caption files the editor imports: SubRip (.srt) and WebVTT (.vtt), read into
 * the EDL's cues (seconds on the output timeline, text as shown, lines kept).
 * Cue numbers, WebVTT headers, NOTE/STYLE/REGION blocks, cue settings and
 * markup tags (<i>, <c.x>, <v Name>) are dropped; a cue without text or
 * ending before it starts is skipped.
 */
import type { CaptionCue } from "../../../../server/src/modules/video-edit/edl.schema";

const TIMING = /^\s*((?:\d+:)?\d{1,2}:\d{2}[.,]\d{1,3})\s*-->\s*((?:\d+:)?\d{1,2}:\d{2}[.,]\d{1,3})/;

/** `01:02:03,450`, `02:03.450` → seconds. */
function timestamp(value: string): number {
  const parts = value.replace(",", ".").split(":").map(Number);
  const seconds = parts.pop() ?? 0;
  const minutes = parts.pop() ?? 0;
  const hours = parts.pop() ?? 0;
  return Math.round((hours * 3600 + minutes * 60 + seconds) * 1000) / 1000;
}

export function parseCaptionFile(content: string): CaptionCue[] {
  const cues: CaptionCue[] = [];
  const blocks = content
    .replace(/^\uFEFF/, "")
    .replace(/\r\n?/g, "\n")
    .split(/\n{2,}/);
  for (const block of blocks) {
    const lines = block.split("\n");
    const timingAt = lines.findIndex((line) => TIMING.test(line));
    if (timingAt < 0) continue; // the WEBVTT header, NOTE, STYLE, REGION, or noise
    const [, from, to] = TIMING.exec(lines[timingAt]!)!;
    const text = lines
      .slice(timingAt + 1)
      .map((line) => line.replace(/<[^>]*>/g, "").trim())
      .filter((line) => line.length > 0)
      .join("\n");
    const start = timestamp(from!);
    const end = timestamp(to!);
    if (text && end > start) cues.push({ start, end, text });
  }
  return cues.sort((a, b) => a.start - b.start);
}
