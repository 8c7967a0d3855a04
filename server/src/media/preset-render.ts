import fs from "node:fs/promises";
import type { ExiftoolProcess } from "./exiftool-process.js";
import { FFMPEG_PREAMBLE, fileUrl, PROTOCOL_WHITELIST, safeInput } from "./ffmpeg-args.js";
import { openImage, toMediaError } from "./images.js";
import { MediaError } from "./media-error.js";
import { probeMedia } from "./probe.js";
import { probeLimits, runTool, type ToolLimits } from "./run-tool.js";
import { renderMark, type WatermarkSpec } from "./watermark.js";

/**
 * A download preset's rendition (docs/presets.md): a photo resized into a
 * box, watermarked and encoded (sharp), or a video/audio transcoded
 * (ffmpeg, the watermark as an overlay of the same mark sharp draws).
 */

export type PhotoFormat = "jpeg" | "webp" | "png" | "avif";
export type AvFormat = "mp4" | "aac" | "mp3";
/** `all`: every tag kept; `rights`: only credit, caption and copyright (IPTC and XMP); `none`: nothing. */
export type MetadataPolicy = "all" | "rights" | "none";

export interface RenditionSpec {
  format: PhotoFormat | AvFormat;
  maxWidth: number | null;
  maxHeight: number | null;
  /** 1..100, photos. */
  quality: number;
  /** Convert to sRGB and embed its profile (photos). */
  srgb: boolean;
  metadata: MetadataPolicy;
  videoBitrateKbps: number;
  audioBitrateKbps: number;
  watermark: WatermarkSpec | null;
}

export interface RenderedRendition {
  path: string;
  mime: string;
  width: number | null;
  height: number | null;
  sizeBytes: number;
}

export const RENDITION_MIME: Record<PhotoFormat | AvFormat, string> = {
  jpeg: "image/jpeg",
  webp: "image/webp",
  png: "image/png",
  avif: "image/avif",
  mp4: "video/mp4",
  aac: "audio/mp4",
  mp3: "audio/mpeg",
};

/** The size inside a max box (either side may be unlimited), never enlarging; `even` for H.264. */
export function fitBox(
  width: number,
  height: number,
  maxWidth: number | null,
  maxHeight: number | null,
  even = false,
): { width: number; height: number } {
  const scale = Math.min(1, maxWidth ? maxWidth / width : 1, maxHeight ? maxHeight / height : 1);
  const round = (value: number) => (even ? Math.max(2, Math.round(value / 2) * 2) : Math.max(1, Math.round(value)));
  if (scale >= 1) return { width: even ? round(width) : width, height: even ? round(height) : height };
  return { width: round(width * scale), height: round(height * scale) };
}

/** Credit, caption and copyright, IPTC and XMP, copied from the original (exiftool). */
const RIGHTS_TAGS = [
  "-IPTC:Credit",
  "-IPTC:Caption-Abstract",
  "-IPTC:CopyrightNotice",
  "-XMP-photoshop:Credit<IPTC:Credit",
  "-XMP-dc:Description<IPTC:Caption-Abstract",
  "-XMP-dc:Rights<IPTC:CopyrightNotice",
  "-XMP-photoshop:Credit",
  "-XMP-dc:Description",
  "-XMP-dc:Rights",
  "-EXIF:Copyright",
];

export async function renderPhotoRendition(
  input: string,
  out: string,
  spec: RenditionSpec,
  options: { maxPixels: number; timeoutSeconds: number; exiftool: ExiftoolProcess; limits: ToolLimits },
): Promise<RenderedRendition> {
  const format = spec.format as PhotoFormat;
  const opened = await openImage(input, options);
  const size = fitBox(opened.width, opened.height, spec.maxWidth, spec.maxHeight);
  try {
    let pipeline = opened.pipeline;
    if (size.width !== opened.width || size.height !== opened.height) {
      pipeline = pipeline.resize(size.width, size.height, { fit: "fill" });
    }
    if (spec.watermark) {
      const mark = await renderMark(spec.watermark, size);
      pipeline = pipeline.composite([{ input: mark.png, left: mark.left, top: mark.top }]);
    }
    if (spec.metadata === "all") pipeline = pipeline.keepMetadata();
    if (spec.srgb) pipeline = pipeline.toColourspace("srgb").withIccProfile("srgb");
    const quality = Math.max(1, Math.min(100, spec.quality));
    if (format === "jpeg") pipeline = pipeline.flatten({ background: "#ffffff" }).jpeg({ quality, mozjpeg: false });
    else if (format === "webp") pipeline = pipeline.webp({ quality });
    else if (format === "avif") pipeline = pipeline.avif({ quality: Math.round(quality * 0.6), effort: 2 });
    else pipeline = pipeline.png({ compressionLevel: 6 });
    const info = await pipeline.toFile(out);
    if (spec.metadata === "rights") {
      await options.exiftool.run(
        [
          ...["-overwrite_original", "-m", "-charset", "iptc=UTF8", "-tagsFromFile", input, ...RIGHTS_TAGS],
          ...(format === "jpeg" ? ["-IPTC:CodedCharacterSet=UTF8"] : []),
          out,
        ],
        {
          timeoutMs: options.limits.timeoutMs,
          signal: options.limits.signal,
        },
      );
    }
    const { size: sizeBytes } = await fs.stat(out);
    return { path: out, mime: RENDITION_MIME[format], width: info.width, height: info.height, sizeBytes };
  } catch (error) {
    if (error instanceof MediaError) throw error;
    throw toMediaError(error);
  }
}

/** A video as H.264/AAC MP4 at a bitrate inside the box, or audio as AAC/MP3; the watermark overlaid on video. */
export async function renderAvRendition(
  input: string,
  out: string,
  spec: RenditionSpec,
  options: { limits: ToolLimits; markFile: string },
): Promise<RenderedRendition> {
  const probe = await probeMedia(input, probeLimits(options.limits));
  const audioBitrate = `${spec.audioBitrateKbps}k`;
  const audioOnly = spec.format === "aac" || spec.format === "mp3";
  if (audioOnly) {
    if (!probe.audioCodec) throw new MediaError("unsupported_format", "the file has no audio stream");
    const codec = spec.format === "mp3" ? ["-c:a", "libmp3lame"] : ["-c:a", "aac"];
    const container = spec.format === "mp3" ? ["-f", "mp3"] : ["-movflags", "+faststart", "-f", "mp4"];
    await runTool(
      "ffmpeg",
      [
        ...FFMPEG_PREAMBLE,
        ...safeInput(input),
        ...["-map", "0:a:0", "-vn", ...codec, "-b:a", audioBitrate, "-map_metadata", "-1"],
        ...container,
        fileUrl(out),
      ],
      options.limits,
    );
    const { size } = await fs.stat(out);
    return { path: out, mime: RENDITION_MIME[spec.format], width: null, height: null, sizeBytes: size };
  }
  if (probe.kind !== "video" || !probe.width || !probe.height)
    throw new MediaError("unsupported_format", "the file has no video stream");
  const size = fitBox(probe.width, probe.height, spec.maxWidth, spec.maxHeight, true);
  const base = `[0:v:0]yadif=deint=interlaced,scale=${size.width}:${size.height},setsar=1`;
  let graph = `${base},format=yuv420p[v]`;
  const markInput: string[] = [];
  if (spec.watermark) {
    const mark = await renderMark(spec.watermark, size);
    await fs.writeFile(options.markFile, mark.png);
    markInput.push("-protocol_whitelist", PROTOCOL_WHITELIST, "-f", "png_pipe", "-i", fileUrl(options.markFile));
    graph = `${base}[base];[base][1:v]overlay=${mark.left}:${mark.top}:format=auto,format=yuv420p[v]`;
  }
  const kbps = spec.videoBitrateKbps;
  await runTool(
    "ffmpeg",
    [
      ...FFMPEG_PREAMBLE,
      ...safeInput(input),
      ...markInput,
      ...["-filter_complex", graph, "-map", "[v]"],
      ...(probe.audioCodec ? ["-map", "0:a:0", "-c:a", "aac", "-b:a", audioBitrate, "-ac", "2"] : []),
      ...["-c:v", "libx264", "-preset", "veryfast", "-profile:v", "high"],
      ...["-b:v", `${kbps}k`, "-maxrate", `${kbps}k`, "-bufsize", `${kbps * 2}k`],
      ...["-map_metadata", "-1", "-movflags", "+faststart", "-f", "mp4", fileUrl(out)],
    ],
    options.limits,
  );
  const { size: sizeBytes } = await fs.stat(out);
  return { path: out, mime: "video/mp4", ...size, sizeBytes };
}
