import { FFMPEG_PREAMBLE, fileUrl, safeInput } from "./ffmpeg-args.js";
import { MediaError } from "./media-error.js";
import { type MediaProbe, probeMedia } from "./probe.js";
import { limitsOf, probeLimits, runTool, type ToolLimits } from "./run-tool.js";
import { type MediaJobOptions, progressReader, sizeOf, type TranscodeOptions } from "./video.js";

export interface AudioProxyResult {
  path: string;
  format: "m4a" | "mp3";
  sizeBytes: number;
  durationSeconds: number;
}

export interface AudioWaveform {
  /** Per bucket, the largest absolute sample, 0..1 (what wavesurfer.js takes as `peaks`). */
  peaks: number[];
  durationSeconds: number;
  /** The rate the audio was decoded at before reducing. */
  sampleRate: number;
}

async function audioProbe(file: string, options: MediaJobOptions, limits: ToolLimits): Promise<MediaProbe> {
  const probe = options.probe ?? (await probeMedia(file, probeLimits(limits)));
  if (!probe.audioCodec) throw new MediaError("unsupported_format", "the file has no audio stream");
  return probe;
}

/**
 * The first audio stream as a web proxy: AAC 128 kbit/s stereo in M4A
 * (`+faststart`), or MP3 (libmp3lame, VBR ~190 kbit/s) when `format` is "mp3".
 * Works on video files too (their sound track).
 */
export async function transcodeAudioProxy(
  file: string,
  out: string,
  options: TranscodeOptions & { format?: "m4a" | "mp3" } = {},
): Promise<AudioProxyResult> {
  const limits = limitsOf(options);
  const probe = await audioProbe(file, options, limits);
  const format = options.format ?? "m4a";
  const codec =
    format === "mp3"
      ? ["-c:a", "libmp3lame", "-q:a", "2", "-f", "mp3"]
      : ["-c:a", "aac", "-b:a", "128k", "-movflags", "+faststart", "-f", "ipod"];
  await runTool(
    "ffmpeg",
    [
      ...FFMPEG_PREAMBLE,
      "-nostats",
      "-progress",
      "pipe:1",
      ...safeInput(file),
      "-map",
      "0:a:0",
      "-vn",
      "-ac",
      "2",
      "-map_metadata",
      "-1",
      ...codec,
      fileUrl(out),
    ],
    { ...limits, onStdoutLine: progressReader(probe.durationSeconds, options.onProgress) },
  );
  return { path: out, format, sizeBytes: await sizeOf(out), durationSeconds: probe.durationSeconds };
}

/**
 * Waveform peaks: ffmpeg decodes the first audio stream to 8 kHz mono 16-bit
 * PCM on a pipe, and each of `peaks` equal slices of the duration keeps its
 * largest absolute sample. Memory stays at one chunk, whatever the length.
 */
export async function audioWaveform(
  file: string,
  options: MediaJobOptions & { peaks?: number } = {},
): Promise<AudioWaveform> {
  const limits = limitsOf(options);
  const probe = await audioProbe(file, options, limits);
  const bucketCount = Math.max(1, Math.min(options.peaks ?? 1000, 100_000));
  const sampleRate = 8000;
  const expectedSamples = Math.max(1, Math.round(probe.durationSeconds * sampleRate));
  const samplesPerBucket = Math.max(1, expectedSamples / bucketCount);
  const peaks = new Array<number>(bucketCount).fill(0);
  let sampleIndex = 0;
  let carry: Buffer | undefined;

  const onStdoutData = (chunk: Buffer) => {
    const data = carry ? Buffer.concat([carry, chunk]) : chunk;
    const usable = data.length - (data.length % 2);
    carry = usable < data.length ? data.subarray(usable) : undefined;
    for (let offset = 0; offset < usable; offset += 2) {
      const bucket = Math.min(bucketCount - 1, Math.floor(sampleIndex / samplesPerBucket));
      const amplitude = Math.abs(data.readInt16LE(offset)) / 32768;
      if (amplitude > (peaks[bucket] ?? 0)) peaks[bucket] = amplitude;
      sampleIndex++;
    }
  };
  await runTool(
    "ffmpeg",
    [
      ...FFMPEG_PREAMBLE,
      ...safeInput(file),
      "-map",
      "0:a:0",
      "-vn",
      "-ac",
      "1",
      "-ar",
      String(sampleRate),
      "-f",
      "s16le",
      "-acodec",
      "pcm_s16le",
      "pipe:1",
    ],
    { ...limits, onStdoutData },
  );
  if (sampleIndex === 0) throw new MediaError("corrupt", "ffmpeg decoded no audio samples from the file");
  return {
    peaks: peaks.map((peak) => Math.round(peak * 10_000) / 10_000),
    durationSeconds: probe.durationSeconds || sampleIndex / sampleRate,
    sampleRate,
  };
}
