import fs from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import { FFMPEG_PREAMBLE, fileUrl, mp4Output, safeInput } from "./ffmpeg-args.js";
import { MediaError } from "./media-error.js";
import { type MediaProbe, probeMedia } from "./probe.js";
import { limitsOf, probeLimits, runTool, type ToolLimits } from "./run-tool.js";

export interface MediaJobOptions {
  limits?: ToolLimits;
  /** Cancels the work (a job's cancel); merged with limits.signal. */
  signal?: AbortSignal;
  /** The probe of the same file, when the caller already has it. */
  probe?: MediaProbe;
}

export interface TranscodeOptions extends MediaJobOptions {
  /** Whole percent 0-100, called when it changes, from ffmpeg's `-progress` output. */
  onProgress?: (percent: number) => void;
}

export interface RenderedFile {
  path: string;
  width: number;
  height: number;
  sizeBytes: number;
}

async function videoProbe(file: string, options: MediaJobOptions, limits: ToolLimits): Promise<MediaProbe> {
  const probe = options.probe ?? (await probeMedia(file, probeLimits(limits)));
  if (probe.kind !== "video" || !probe.width || !probe.height)
    throw new MediaError("unsupported_format", "the file has no video stream");
  return probe;
}

/** The largest even size inside a box of `longEdge` x `shortEdge` (either orientation), never enlarging. */
export function fitInside(
  width: number,
  height: number,
  longEdge: number,
  shortEdge: number,
): { width: number; height: number } {
  const [boxWidth, boxHeight] = width >= height ? [longEdge, shortEdge] : [shortEdge, longEdge];
  const scale = Math.min(1, boxWidth / width, boxHeight / height);
  const even = (value: number) => Math.max(2, Math.round((value * scale) / 2) * 2);
  return { width: even(width), height: even(height) };
}

/** The size of a file ffmpeg was to write; none (or empty) means it decoded no frame. */
export async function sizeOf(file: string): Promise<number> {
  const size = await fs.stat(file).then(
    (stat) => stat.size,
    () => 0,
  );
  if (size === 0) throw new MediaError("corrupt", "ffmpeg could not decode a frame or a sample from the file");
  return size;
}

/**
 * One frame as a JPEG poster, at 10% of the duration (at most 3 s in), turned
 * as a player shows it and at most 1280 px on its long edge.
 */
export async function renderPoster(file: string, out: string, options: MediaJobOptions = {}): Promise<RenderedFile> {
  const limits = limitsOf(options);
  const probe = await videoProbe(file, options, limits);
  const size = fitInside(probe.width ?? 0, probe.height ?? 0, 1280, 1280);
  const at = Math.min(3, probe.durationSeconds * 0.1);
  await runTool(
    "ffmpeg",
    [
      ...FFMPEG_PREAMBLE,
      ...safeInput(file, at),
      "-map",
      "0:v:0",
      "-frames:v",
      "1",
      "-vf",
      `scale=${size.width}:${size.height},setsar=1`,
      "-q:v",
      "3",
      "-f",
      "image2",
      "-update",
      "1",
      fileUrl(out),
    ],
    limits,
  );
  return { path: out, ...size, sizeBytes: await sizeOf(out) };
}

export interface VideoProxyResult extends RenderedFile {
  durationSeconds: number;
  hasAudio: boolean;
}

/** Progress lines (`out_time_us=…`, `progress=end`) into whole percent of `durationSeconds`. */
export function progressReader(durationSeconds: number, onProgress?: (percent: number) => void) {
  let last = -1;
  const report = (percent: number) => {
    const whole = Math.max(0, Math.min(100, Math.floor(percent)));
    if (whole !== last && onProgress) {
      last = whole;
      // A job's progress writer may be async; its failure must not become an unhandled rejection.
      const result: unknown = onProgress(whole);
      if (result instanceof Promise) result.catch(() => {});
    }
  };
  return (line: string) => {
    const [key, value] = line.split("=", 2);
    if (key === "progress" && value === "end") return report(100);
    if ((key === "out_time_us" || key === "out_time_ms") && durationSeconds > 0) {
      const micros = Number(value);
      // Never claim 100 before ffmpeg says "end": the moov atom is still being moved.
      if (Number.isFinite(micros) && micros >= 0) report(Math.min(99, (micros / 1e6 / durationSeconds) * 100));
    }
  };
}

/** The proxy's ffmpeg arguments after the input; exported so the benchmark runs the identical command. */
export function videoProxyArgs(probe: MediaProbe, out: string): string[] {
  const size = fitInside(probe.width ?? 0, probe.height ?? 0, 1920, 1080);
  return [
    "-map",
    "0:v:0",
    ...(probe.audioCodec ? ["-map", "0:a:0"] : []),
    "-vf",
    // Broadcast and camcorder material is often interlaced: deinterlace the frames flagged so, pass the rest.
    `yadif=deint=interlaced,scale=${size.width}:${size.height},setsar=1,format=yuv420p`,
    "-c:v",
    "libx264",
    "-preset",
    "veryfast",
    "-crf",
    "23",
    "-profile:v",
    "high",
    ...(probe.audioCodec ? ["-c:a", "aac", "-b:a", "128k", "-ac", "2"] : []),
    ...mp4Output(out),
  ];
}

/**
 * A web proxy: H.264 (yuv420p, High) with AAC stereo in MP4, at most 1080p
 * (1920x1080 landscape, 1080x1920 portrait), the rotation applied to the
 * pixels (ffmpeg's autorotate) so every player shows it upright, and the index
 * in front (`+faststart`) so playback starts before the download ends.
 */
export async function transcodeVideoProxy(
  file: string,
  out: string,
  options: TranscodeOptions = {},
): Promise<VideoProxyResult> {
  const limits = limitsOf(options);
  const probe = await videoProbe(file, options, limits);
  const onLine = progressReader(probe.durationSeconds, options.onProgress);
  await runTool(
    "ffmpeg",
    [...FFMPEG_PREAMBLE, "-nostats", "-progress", "pipe:1", ...safeInput(file), ...videoProxyArgs(probe, out)],
    { ...limits, onStdoutLine: onLine },
  );
  const size = fitInside(probe.width ?? 0, probe.height ?? 0, 1920, 1080);
  return {
    path: out,
    ...size,
    sizeBytes: await sizeOf(out),
    durationSeconds: probe.durationSeconds,
    hasAudio: probe.audioCodec !== null,
  };
}

export interface ThumbnailStripFrame {
  index: number;
  /** Seconds from the start. */
  time: number;
  /** The frame's own JPEG, in outDir. */
  file: string;
  /** Where the frame sits in the sprite. */
  x: number;
  y: number;
}

export interface ThumbnailStrip {
  /** The JSON index written beside the frames. */
  indexFile: string;
  /** All frames side by side in one JPEG (strip.jpg), so a scrubber loads one image. */
  spriteFile: string;
  frameWidth: number;
  frameHeight: number;
  durationSeconds: number;
  frames: ThumbnailStripFrame[];
}

/**
 * `count` small JPEG frames spread evenly over the duration (the middle of each
 * slice), named strip-00.jpg…, the same frames side by side in strip.jpg (a
 * sprite), and `strip.json` with their timestamps and sprite offsets, for
 * scrubbing. Each frame is a fast input seek, so a two-hour film costs the
 * same as a clip.
 */
export async function renderThumbnailStrip(
  file: string,
  outDir: string,
  options: MediaJobOptions & { count?: number; frameLongEdge?: number } = {},
): Promise<ThumbnailStrip> {
  const limits = limitsOf(options);
  const probe = await videoProbe(file, options, limits);
  const count = Math.max(1, Math.min(options.count ?? 10, 100));
  const longEdge = options.frameLongEdge ?? 160;
  const frameSize = fitInside(probe.width ?? 0, probe.height ?? 0, longEdge, longEdge);
  await fs.mkdir(outDir, { recursive: true });
  const frames: ThumbnailStripFrame[] = [];
  for (let index = 0; index < count; index++) {
    const time = Math.round(((probe.durationSeconds * (index + 0.5)) / count) * 1000) / 1000;
    const name = `strip-${String(index).padStart(2, "0")}.jpg`;
    await runTool(
      "ffmpeg",
      [
        ...FFMPEG_PREAMBLE,
        ...safeInput(file, time),
        "-map",
        "0:v:0",
        "-frames:v",
        "1",
        "-vf",
        `scale=${frameSize.width}:${frameSize.height},setsar=1`,
        "-q:v",
        "5",
        "-f",
        "image2",
        "-update",
        "1",
        fileUrl(path.join(outDir, name)),
      ],
      limits,
    );
    await sizeOf(path.join(outDir, name));
    frames.push({ index, time, file: name, x: index * frameSize.width, y: 0 });
  }
  const spriteFile = path.join(outDir, "strip.jpg");
  await sharp({
    create: { width: frameSize.width * count, height: frameSize.height, channels: 3, background: "#000000" },
  })
    .composite(frames.map((frame) => ({ input: path.join(outDir, frame.file), left: frame.x, top: frame.y })))
    .jpeg({ quality: 75 })
    .toFile(spriteFile);
  const strip: ThumbnailStrip = {
    indexFile: path.join(outDir, "strip.json"),
    spriteFile,
    frameWidth: frameSize.width,
    frameHeight: frameSize.height,
    durationSeconds: probe.durationSeconds,
    frames,
  };
  await fs.writeFile(
    strip.indexFile,
    JSON.stringify({
      sprite: path.basename(spriteFile),
      frameWidth: strip.frameWidth,
      frameHeight: strip.frameHeight,
      durationSeconds: strip.durationSeconds,
      frames,
    }),
  );
  return strip;
}
