import path from "node:path";
import { FFMPEG_PREAMBLE, safeInput } from "./ffmpeg-args.js";
import { runTool, type ToolLimits } from "./run-tool.js";

/**
 * One MP4 of a local file's streams, copied (no re-encoding), e.g. the joined
 * segments of an HLS stream: with the protocol and demuxer allow-lists of
 * every other ffmpeg run (no playlist demuxer, no network), and under the
 * same limits (priority, threads, memory, time, cancel).
 */
export async function remuxToMp4(input: string, out: string, limits: ToolLimits): Promise<void> {
  await runTool(
    "ffmpeg",
    [
      ...FFMPEG_PREAMBLE,
      ...safeInput(input),
      "-map",
      "0:v?",
      "-map",
      "0:a?",
      "-c",
      "copy",
      "-movflags",
      "+faststart",
      "-f",
      "mp4",
      `file:${path.resolve(out)}`,
    ],
    limits,
  );
}
