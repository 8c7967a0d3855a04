import { z } from "zod";
import { isAllowedContainer, safeInput, ffmpegSeconds as seconds } from "./ffmpeg-args.js";
import { MediaError } from "./media-error.js";
import { DEFAULT_TOOL_LIMITS, runTool, type ToolLimits } from "./run-tool.js";

/** What ffprobe says about a video or audio file, after our allow-list accepted it. */
export interface MediaProbe {
  kind: "video" | "audio";
  /** ffprobe's format_name, e.g. "mov,mp4,m4a,3gp,3g2,mj2". */
  container: string;
  durationSeconds: number;
  /** Overall bits per second, when known. */
  bitRate: number | null;
  videoCodec: string | null;
  audioCodec: string | null;
  /** Display size: the coded size with square pixels and the rotation applied. */
  width: number | null;
  height: number | null;
  codedWidth: number | null;
  codedHeight: number | null;
  frameRate: number | null;
  /** Clockwise degrees a player turns the picture (display matrix or the legacy rotate tag). */
  rotation: 0 | 90 | 180 | 270;
  audioChannels: number | null;
  audioSampleRate: number | null;
  /**
   * Only when asked for (`keyframesNear`): the times of the picture's keyframes
   * read around that time, counted as ffmpeg's `-ss` counts (from the file's start).
   */
  keyframes?: number[];
}

export interface ProbeOptions {
  /** Also list the picture's keyframes within 2 s of this time, in the same ffprobe run (no decoding). */
  keyframesNear?: number;
}

/** How far around `keyframesNear` the packet index is read. */
const KEYFRAME_WINDOW_SECONDS = 2;

const streamSchema = z.object({
  index: z.number().optional(),
  codec_type: z.string().optional(),
  codec_name: z.string().optional(),
  width: z.number().optional(),
  height: z.number().optional(),
  sample_aspect_ratio: z.string().optional(),
  avg_frame_rate: z.string().optional(),
  r_frame_rate: z.string().optional(),
  channels: z.number().optional(),
  sample_rate: z.string().optional(),
  disposition: z.object({ attached_pic: z.number().optional() }).partial().optional(),
  tags: z.record(z.string(), z.string()).optional(),
  side_data_list: z.array(z.object({ rotation: z.number().optional() }).passthrough()).optional(),
});
const packetSchema = z.object({
  stream_index: z.number().optional(),
  pts_time: z.string().optional(),
  flags: z.string().optional(),
});
const probeSchema = z.object({
  streams: z.array(streamSchema).default([]),
  packets: z.array(packetSchema).default([]),
  format: z.object({
    format_name: z.string(),
    start_time: z.string().optional(),
    duration: z.string().optional(),
    bit_rate: z.string().optional(),
  }),
});

function fraction(value: string | undefined): number | null {
  if (!value) return null;
  const [numerator, denominator] = value.split("/").map(Number);
  if (!numerator || !denominator || !Number.isFinite(numerator / denominator)) return null;
  return Math.round((numerator / denominator) * 1000) / 1000;
}

function positiveNumber(value: string | undefined): number | null {
  const number = Number(value);
  return value !== undefined && Number.isFinite(number) && number > 0 ? number : null;
}

function clockwise(degrees: number): 0 | 90 | 180 | 270 {
  const normalized = (((Math.round(degrees / 90) * 90) % 360) + 360) % 360;
  return normalized as 0 | 90 | 180 | 270;
}

function rotationOf(stream: z.infer<typeof streamSchema>): 0 | 90 | 180 | 270 {
  const matrix = stream.side_data_list?.find((entry) => typeof entry.rotation === "number");
  // ffprobe reports the display matrix counter-clockwise; ffmpeg's autorotate turns by its negation.
  if (matrix?.rotation !== undefined) return clockwise(-matrix.rotation);
  const tag = stream.tags?.rotate;
  return tag !== undefined && Number.isFinite(Number(tag)) ? clockwise(Number(tag)) : 0;
}

/** The command line after `ffprobe` (exported for the benchmarks, which run the same command from a shell). */
export function probeArgs(file: string, options: ProbeOptions = {}): string[] {
  const args = ["-hide_banner", "-loglevel", "error", "-print_format", "json", "-show_format", "-show_streams"];
  const near = options.keyframesNear;
  if (near !== undefined) {
    // The packet index around that time only: a ten-minute film costs what a clip does.
    const from = Math.max(0, near - KEYFRAME_WINDOW_SECONDS);
    const length = near - from + KEYFRAME_WINDOW_SECONDS;
    args.push(
      "-show_entries",
      "packet=stream_index,pts_time,flags",
      "-read_intervals",
      `${seconds(from)}%+${seconds(length)}`,
    );
  }
  return [...args, ...safeInput(file)];
}

/**
 * Runs ffprobe under the safety options and refuses what is not an allowed
 * audio/video container with at least one audio or video stream. Every other
 * function here probes first, so nothing transcodes a file this refuses.
 */
export async function probeMedia(
  file: string,
  limits: ToolLimits = DEFAULT_TOOL_LIMITS,
  options: ProbeOptions = {},
): Promise<MediaProbe> {
  const near = options.keyframesNear;
  const args = probeArgs(file, options);
  let stdout: string;
  try {
    ({ stdout } = await runTool("ffprobe", args, { ...limits, maxStdoutBytes: 4 * 1024 * 1024 }));
  } catch (error) {
    if (error instanceof MediaError && error.kind === "tool_failed")
      throw new MediaError("unsupported_format", "the file is not a video or audio file that ffprobe can read", {
        cause: error,
      });
    throw error;
  }
  const parsed = probeSchema.safeParse(JSON.parse(stdout || "{}"));
  if (!parsed.success) throw new MediaError("unsupported_format", "ffprobe found no readable container in the file");
  const { format, streams } = parsed.data;
  if (!isAllowedContainer(format.format_name))
    throw new MediaError("refused", `the container "${format.format_name}" is not an allowed video or audio format`);

  const video = streams.find((stream) => stream.codec_type === "video" && !stream.disposition?.attached_pic);
  const audio = streams.find((stream) => stream.codec_type === "audio");
  if (!video && !audio) throw new MediaError("unsupported_format", "the file has no video or audio stream");

  const rotation = video ? rotationOf(video) : 0;
  const turned = rotation === 90 || rotation === 270;
  const codedWidth = video?.width ?? null;
  const codedHeight = video?.height ?? null;
  // Anamorphic video (DV, some broadcast files) stores non-square pixels: its display width differs.
  const sampleAspect = video?.sample_aspect_ratio?.split(":").map(Number) ?? [];
  const [sarNumerator = 1, sarDenominator = 1] = sampleAspect;
  const sar = sarNumerator > 0 && sarDenominator > 0 ? sarNumerator / sarDenominator : 1;
  const shownWidth = codedWidth === null ? null : Math.round(codedWidth * sar);
  return {
    kind: video ? "video" : "audio",
    container: format.format_name,
    durationSeconds: positiveNumber(format.duration) ?? 0,
    bitRate: positiveNumber(format.bit_rate),
    videoCodec: video?.codec_name ?? null,
    audioCodec: audio?.codec_name ?? null,
    width: turned ? codedHeight : shownWidth,
    height: turned ? shownWidth : codedHeight,
    codedWidth,
    codedHeight,
    frameRate: video ? (fraction(video.avg_frame_rate) ?? fraction(video.r_frame_rate)) : null,
    rotation,
    audioChannels: audio?.channels ?? null,
    audioSampleRate: positiveNumber(audio?.sample_rate),
    ...(near !== undefined ? { keyframes: keyframeTimes(parsed.data, video?.index) } : {}),
  };
}

/** The keyframes among the packets read, on the timeline `-ss` counts on (the container's start is 0). */
function keyframeTimes(probe: z.infer<typeof probeSchema>, videoIndex: number | undefined): number[] {
  if (videoIndex === undefined) return [];
  const start = Number(probe.format.start_time ?? 0) || 0;
  return probe.packets
    .filter((packet) => packet.stream_index === videoIndex && packet.flags?.includes("K") && packet.pts_time)
    .map((packet) => Number(packet.pts_time) - start)
    .filter((time) => Number.isFinite(time));
}
