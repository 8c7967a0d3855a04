import type { StripIndex } from "../../api/story-detail";

/** The strip frame to show for a time: the last frame taken at or before it (the first before any). */
export function frameAt(strip: Pick<StripIndex, "frames">, seconds: number) {
  const frames = strip.frames;
  if (frames.length === 0) return undefined;
  let best = frames[0];
  for (const frame of frames) {
    if (frame.time <= seconds && (best === undefined || frame.time >= best.time)) best = frame;
  }
  return best;
}

/** The time under a pointer at `x` of a bar `width` wide, for a media of `duration` seconds. */
export function timeAtPosition(x: number, width: number, duration: number): number {
  if (width <= 0 || !Number.isFinite(duration) || duration <= 0) return 0;
  return Math.min(duration, Math.max(0, (x / width) * duration));
}

/** Reads a strip index, or null when the JSON is not one (an older or broken rendition). */
export function parseStripIndex(value: unknown): StripIndex | null {
  if (!value || typeof value !== "object") return null;
  const strip = value as Partial<StripIndex>;
  if (typeof strip.frameWidth !== "number" || typeof strip.frameHeight !== "number" || !Array.isArray(strip.frames))
    return null;
  const frames = strip.frames.filter(
    (frame) => frame && typeof frame.time === "number" && typeof frame.x === "number" && typeof frame.y === "number",
  );
  return {
    sprite: String(strip.sprite ?? ""),
    frameWidth: strip.frameWidth,
    frameHeight: strip.frameHeight,
    durationSeconds: Number(strip.durationSeconds ?? 0),
    frames,
  };
}

/** Waveform peaks from the `waveform` rendition ({ peaks: number[] }), or null. */
export function parsePeaks(value: unknown): number[] | null {
  const peaks = (value as { peaks?: unknown } | null)?.peaks;
  if (!Array.isArray(peaks) || peaks.length === 0 || !peaks.every((peak) => typeof peak === "number")) return null;
  return peaks as number[];
}
