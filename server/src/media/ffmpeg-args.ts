import path from "node:path";

/**
 * Demuxers ffmpeg and ffprobe may open. Passed as `-format_whitelist`, which
 * ffmpeg also copies into nested demuxers (an AVI's GAB2 subtitle, a
 * playlist), and checked again on ffprobe's answer. Playlists (hls, dash,
 * concat), image sequences, text formats and anything that opens other files
 * are absent on purpose.
 */
export const ALLOWED_DEMUXERS = [
  "mov", // mov, mp4, m4a, 3gp, 3g2, mj2
  "matroska", // mkv, webm
  "avi",
  "mpegts",
  "mpeg",
  "flv",
  "asf",
  "mxf",
  "dv",
  "mp3",
  "aac",
  "wav",
  "w64",
  "aiff",
  "flac",
  "ogg",
  "caf",
  "amr",
] as const;

/** Only local files and our own pipes: no http, tcp, crypto, concat, subfile, data. */
export const PROTOCOL_WHITELIST = "file,pipe";

/** A path as an explicit `file:` URL, so a name can never be read as another protocol. */
export function fileUrl(file: string): string {
  return `file:${path.resolve(file)}`;
}

/** Seconds as ffmpeg's time options take them: up to microseconds, no trailing zeros. */
export function ffmpegSeconds(value: number): string {
  return value.toFixed(6).replace(/\.?0+$/, "") || "0";
}

/** The options every ffmpeg and ffprobe input is opened with. */
export function safeInput(file: string, seekSeconds?: number): string[] {
  return [
    "-protocol_whitelist",
    PROTOCOL_WHITELIST,
    "-format_whitelist",
    ALLOWED_DEMUXERS.join(","),
    ...(seekSeconds !== undefined ? ["-ss", seekSeconds.toFixed(3)] : []),
    "-i",
    fileUrl(file),
  ];
}

/** The start of every ffmpeg command line: quiet, non-interactive, overwriting our own temporary outputs. */
export const FFMPEG_PREAMBLE = ["-hide_banner", "-nostdin", "-y", "-loglevel", "error"];

export function isAllowedContainer(formatName: string): boolean {
  const allowed: readonly string[] = ALLOWED_DEMUXERS;
  return formatName.split(",").some((name) => allowed.includes(name));
}

/** The end of every MP4 we write: no metadata carried over, the index in front (playback starts at once). */
export function mp4Output(out: string): string[] {
  return ["-map_metadata", "-1", "-movflags", "+faststart", "-f", "mp4", fileUrl(out)];
}
