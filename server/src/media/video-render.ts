/**
 * Renders an edit: runs the filter graph the video editor's compiler made
 * (modules/video-edit) over local files, or cuts a single source by stream
 * copy, with the same safety as every other ffmpeg run here: inputs opened
 * with the protocol and demuxer allow-lists, a wall-clock limit, the memory
 * bound and the job's AbortSignal (docs/media.md, docs/video-editor.md).
 */
import fs from "node:fs/promises";
import path from "node:path";
import type { MediaConfig } from "../config.js";
import {
  ALLOWED_DEMUXERS,
  FFMPEG_PREAMBLE,
  fileUrl,
  mp4Output,
  PROTOCOL_WHITELIST,
  ffmpegSeconds as seconds,
} from "./ffmpeg-args.js";
import { openImage, toMediaError } from "./images.js";
import { readMp4Facts } from "./mp4-facts.js";
import { type MediaProbe, type ProbeOptions, probeMedia } from "./probe.js";
import { limitsOf, probeLimits, runTool, type ToolLimits } from "./run-tool.js";
import { progressReader, sizeOf, type TranscodeOptions } from "./video.js";
import { lowerLibvipsThreads } from "./vips-threads.js";

/** An input of a render: a media file (cut at the input), or one still picture we prepared. */
export interface RenderInputFile {
  path: string;
  kind: "media" | "image";
  seek?: number;
  duration?: number;
}

/** What the compiler hands over: inputs, the graph text, its output labels and the encoding. */
export interface EditRenderPlan {
  inputs: RenderInputFile[];
  filterGraph: string;
  video: string;
  audio: string;
  fps: string;
  durationSeconds: number;
  encoding: { preset: string; crf: number; audioBitrate: string };
}

/** Input options: media files through the allow-lists, cut at the input; our prepared stills as one image2 file. */
export function renderInputArgs(input: RenderInputFile): string[] {
  if (input.kind === "image")
    return [
      "-protocol_whitelist",
      "file",
      "-format_whitelist",
      "image2",
      "-f",
      "image2",
      "-pattern_type",
      "none",
      "-i",
      fileUrl(input.path),
    ];
  return [
    "-protocol_whitelist",
    PROTOCOL_WHITELIST,
    "-format_whitelist",
    ALLOWED_DEMUXERS.join(","),
    ...(input.seek ? ["-ss", seconds(input.seek)] : []),
    ...(input.duration !== undefined ? ["-t", seconds(input.duration)] : []),
    "-i",
    fileUrl(input.path),
  ];
}

/** The encoder options of a render: H.264 High yuv420p and AAC stereo 48 kHz in MP4, index in front. */
export function renderOutputArgs(plan: EditRenderPlan, out: string): string[] {
  return [
    "-map",
    `[${plan.video}]`,
    "-map",
    `[${plan.audio}]`,
    "-c:v",
    "libx264",
    "-preset",
    plan.encoding.preset,
    "-crf",
    String(plan.encoding.crf),
    "-profile:v",
    "high",
    "-pix_fmt",
    "yuv420p",
    "-r",
    plan.fps,
    "-c:a",
    "aac",
    "-b:a",
    plan.encoding.audioBitrate,
    "-ac",
    "2",
    "-ar",
    "48000",
    ...mp4Output(out),
  ];
}

/** The whole command line after `ffmpeg`; the graph is read from `graphFile` (it can be longer than one argument may be). */
export function renderEditArgs(plan: EditRenderPlan, graphFile: string, out: string): string[] {
  return [
    ...FFMPEG_PREAMBLE,
    "-nostats",
    "-progress",
    "pipe:1",
    ...plan.inputs.flatMap(renderInputArgs),
    "-filter_complex_script",
    graphFile,
    ...renderOutputArgs(plan, out),
  ];
}

export interface RenderResult {
  path: string;
  sizeBytes: number;
  durationSeconds: number;
}

/**
 * Runs a compiled edit. The graph goes to `graph.txt` in `workDir`; the output
 * is written to `out`. Progress is whole percent of the edit's duration, 100
 * only when ffmpeg reports the end. A cancel (the signal) or the time limit
 * kills ffmpeg; the caller removes the partial file with its work directory.
 */
export async function renderEdit(
  plan: EditRenderPlan,
  out: string,
  options: TranscodeOptions & { workDir: string },
): Promise<RenderResult> {
  const limits = limitsOf(options);
  const graphFile = path.join(options.workDir, "graph.txt");
  await fs.writeFile(graphFile, plan.filterGraph);
  await runTool("ffmpeg", renderEditArgs(plan, graphFile, out), {
    ...limits,
    onStdoutLine: progressReader(plan.durationSeconds, options.onProgress),
  });
  return { path: out, sizeBytes: await sizeOf(out), durationSeconds: plan.durationSeconds };
}

export interface CopyCut {
  path: string;
  start: number;
  duration: number;
  /** copy: the sound as it is; encode: AAC, with loudness normalisation when `normalize`; none: no sound. */
  audio: "copy" | "encode" | "none";
  normalize: boolean;
}

/** The stream-copy command: the picture's packets unchanged from the keyframe at `start` for `duration`. */
export function copyCutArgs(cut: CopyCut, out: string): string[] {
  const audio =
    cut.audio === "none"
      ? ["-an"]
      : cut.audio === "copy"
        ? ["-map", "0:a:0", "-c:a", "copy"]
        : [
            "-map",
            "0:a:0",
            ...(cut.normalize ? ["-af", "loudnorm=I=-23:TP=-2:LRA=11,aresample=48000"] : []),
            "-c:a",
            "aac",
            "-b:a",
            "192k",
            "-ac",
            "2",
            "-ar",
            "48000",
          ];
  return [
    ...FFMPEG_PREAMBLE,
    "-nostats",
    "-progress",
    "pipe:1",
    ...renderInputArgs({ path: cut.path, kind: "media", seek: cut.start, duration: cut.duration }),
    "-map",
    "0:v:0",
    "-c:v",
    "copy",
    ...audio,
    "-avoid_negative_ts",
    "make_zero",
    ...mp4Output(out),
  ];
}

/** A single-source cut without re-encoding the picture (seconds instead of minutes). */
export async function copyCut(cut: CopyCut, out: string, options: TranscodeOptions = {}): Promise<RenderResult> {
  const limits = limitsOf(options);
  await runTool("ffmpeg", copyCutArgs(cut, out), {
    ...limits,
    onStdoutLine: progressReader(cut.duration, options.onProgress),
  });
  return { path: out, sizeBytes: await sizeOf(out), durationSeconds: cut.duration };
}

/**
 * A photo ready for the render: upright, sRGB, at most `longEdge` pixels on
 * its long edge, as JPEG (or PNG when it must keep transparency, for a logo).
 * The upload's image safety applies (format allow-list, pixel limit, time
 * limit); ffmpeg then reads only this file we wrote.
 */
export async function renderStill(
  input: string,
  out: string,
  options: { longEdge: number; keepAlpha?: boolean; maxPixels?: number; timeoutSeconds?: number },
): Promise<Still> {
  const opened = await openImage(input, options);
  try {
    const pipeline = opened.pipeline
      .resize(options.longEdge, options.longEdge, { fit: "inside", withoutEnlargement: false })
      .toColourspace("srgb");
    // A logo's still is always a PNG (its file is named so, and ffmpeg's image2 picks the decoder by the name):
    // before, a logo without alpha was written as JPEG bytes under a .png name and the render failed.
    const encoded = options.keepAlpha
      ? pipeline.png({ compressionLevel: 2 })
      : pipeline.flatten({ background: "#000000" }).jpeg({ quality: 92 });
    const info = await encoded.toFile(out);
    return { path: out, width: info.width, height: info.height };
  } catch (error) {
    throw toMediaError(error);
  }
}

/** One frame of a rendered video at `time` as a JPEG (the poster frame chosen in the timeline). */
export async function renderFrameAt(
  file: string,
  time: number,
  out: string,
  options: { limits?: ToolLimits; signal?: AbortSignal } = {},
): Promise<{ path: string; sizeBytes: number }> {
  await runTool(
    "ffmpeg",
    [
      ...FFMPEG_PREAMBLE,
      ...renderInputArgs({ path: file, kind: "media", seek: Math.max(0, time) }),
      "-map",
      "0:v:0",
      "-frames:v",
      "1",
      "-q:v",
      "2",
      "-f",
      "image2",
      "-update",
      "1",
      fileUrl(out),
    ],
    limitsOf(options),
  );
  return { path: out, sizeBytes: await sizeOf(out) };
}

/** The family drawtext asks fontconfig for: Noto Sans CJK (Debian fonts-noto-cjk), Simplified Chinese forms. */
export const RENDER_FONT = "Noto Sans CJK SC";

/** A render's long calls: cancel (a job's signal) and whole percents. */
export interface RenderCall {
  signal?: AbortSignal;
  onProgress?: (percent: number) => void;
}

/**
 * What the video editor's render asks of the media tools (modules/video-edit
 * reaches them only through this); built once in the composition root from
 * `config.media`, whose limits apply to every call.
 */
export interface VideoRenderTools {
  /** `keyframesNear`: list the picture's keyframes around that time too (for a stream-copy cut), in the same run. */
  probe(file: string, call?: { signal?: AbortSignal } & ProbeOptions): Promise<MediaProbe>;
  /** A photo (or a logo, keeping its transparency) prepared for a render. */
  still(input: string, out: string, options: { longEdge: number; keepAlpha?: boolean }): Promise<Still>;
  renderEdit(plan: EditRenderPlan, out: string, call: RenderCall & { workDir: string }): Promise<RenderResult>;
  copyCut(cut: CopyCut, out: string, call?: RenderCall): Promise<RenderResult>;
  frameAt(
    file: string,
    time: number,
    out: string,
    call?: { signal?: AbortSignal },
  ): Promise<{ path: string; sizeBytes: number }>;
}

export interface Still {
  path: string;
  width: number;
  height: number;
}

/** The real render tools, under the configured limits. */
export class SystemVideoRenderTools implements VideoRenderTools {
  constructor(
    private readonly config: Pick<MediaConfig, "timeoutMs" | "memoryBytes" | "maxPixels"> &
      Partial<Pick<MediaConfig, "nice" | "threads">>,
  ) {}

  #limits(signal?: AbortSignal): ToolLimits {
    const { timeoutMs, memoryBytes, nice, threads } = this.config;
    return { timeoutMs, memoryBytes, nice, threads, signal };
  }

  async probe(file: string, call: { signal?: AbortSignal } & ProbeOptions = {}): Promise<MediaProbe> {
    const near = call.keyframesNear;
    // The stream-copy candidate: an H.264 MP4/MOV's facts come from its moov, without starting ffprobe.
    const inProcess = near !== undefined ? await readMp4Facts(file, near) : null;
    return inProcess ?? probeMedia(file, probeLimits(this.#limits(call.signal)), { keyframesNear: near });
  }

  still(input: string, out: string, options: { longEdge: number; keepAlpha?: boolean }): Promise<Still> {
    const timeoutSeconds = Math.min(3600, Math.ceil(this.config.timeoutMs / 1000));
    lowerLibvipsThreads(this.config.nice ?? 0);
    return renderStill(input, out, { ...options, maxPixels: this.config.maxPixels, timeoutSeconds }).finally(() =>
      lowerLibvipsThreads(this.config.nice ?? 0),
    );
  }

  renderEdit(plan: EditRenderPlan, out: string, call: RenderCall & { workDir: string }): Promise<RenderResult> {
    return renderEdit(plan, out, { ...call, limits: this.#limits(call.signal) });
  }

  copyCut(cut: CopyCut, out: string, call: RenderCall = {}): Promise<RenderResult> {
    return copyCut(cut, out, { ...call, limits: this.#limits(call.signal) });
  }

  frameAt(file: string, time: number, out: string, call: { signal?: AbortSignal } = {}) {
    return renderFrameAt(file, time, out, { limits: this.#limits(call.signal) });
  }
}
