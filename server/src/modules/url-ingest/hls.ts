import fs from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { FetchRefused } from "./address-policy.js";
import { type FetchProgress, formatBytes, parseFetchUrl, type SafeFetcher } from "./safe-fetcher.js";

/** A playlist is text of a few kilobytes; a larger one is not a playlist we fetch. */
export const MAX_PLAYLIST_BYTES = 2 * 1024 * 1024;

export type Playlist =
  | { kind: "master"; variants: { url: URL; bandwidth: number }[] }
  | { kind: "media"; init: URL | null; segments: URL[]; ended: boolean };

/** An HLS playlist is text; sniffing would call it that. Say what it is instead. */
export function isHlsPlaylist(file: string, contentType: string | null): boolean {
  if (contentType && /mpegurl/i.test(contentType)) return true;
  const head = Buffer.alloc(16);
  const handle = fs.openSync(file, "r");
  try {
    const read = fs.readSync(handle, head, 0, head.length, 0);
    return head
      .subarray(0, read)
      .toString("latin1")
      .replace(/^\uFEFF|^\xEF\xBB\xBF/, "")
      .startsWith("#EXTM3U");
  } finally {
    fs.closeSync(handle);
  }
}

/** `KEY=value,KEY="quoted, value"` of a tag. */
function attributes(text: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const match of text.matchAll(/([A-Z0-9-]+)=("[^"]*"|[^,]*)/g))
    found.set(match[1]!, match[2]!.replace(/^"|"$/g, ""));
  return found;
}

function refuse(message: string, code: string, params: Record<string, string | number> = {}): never {
  throw new FetchRefused(`Refused: ${message}`, code, params);
}

/** A URI of the playlist, resolved against the playlist's own URL and checked like any URL a user gives. */
function resolve(uri: string, base: URL): URL {
  let url: URL;
  try {
    url = new URL(uri, base);
  } catch {
    refuse(`the playlist names "${uri.slice(0, 200)}", which is not a URL.`, "fetch.hls.badUri", {
      uri: uri.slice(0, 200),
    });
  }
  return parseFetchUrl(url.toString());
}

/**
 * Reads a master or media playlist (RFC 8216), refusing what we do not fetch:
 * encryption other than METHOD=NONE, byte ranges, a media playlist that
 * changes its init segment. Every URI is resolved against `base` and must be
 * an http(s) URL; the fetcher checks its address when it is fetched.
 */
export function parsePlaylist(text: string, base: URL): Playlist {
  const lines = text
    .replace(/^\uFEFF/, "")
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
  if (lines[0] !== "#EXTM3U") refuse("the playlist does not start with #EXTM3U.", "fetch.hls.notPlaylist");
  const variants: { url: URL; bandwidth: number }[] = [];
  const segments: URL[] = [];
  let init: URL | null = null;
  let ended = false;
  let next: "variant" | "segment" | null = null;
  let bandwidth = 0;
  for (const line of lines.slice(1)) {
    if (!line.startsWith("#")) {
      if (next === "variant") variants.push({ url: resolve(line, base), bandwidth });
      else if (next === "segment") segments.push(resolve(line, base));
      next = null;
      continue;
    }
    const colon = line.indexOf(":");
    const tag = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? "" : line.slice(colon + 1);
    switch (tag) {
      case "#EXT-X-STREAM-INF":
        next = "variant";
        bandwidth = Number(attributes(value).get("BANDWIDTH")) || 0;
        break;
      case "#EXTINF":
        next = "segment";
        break;
      case "#EXT-X-KEY":
      case "#EXT-X-SESSION-KEY": {
        const method = attributes(value).get("METHOD") ?? "";
        if (method !== "NONE")
          refuse(
            `the stream is encrypted (${method || "unknown method"}); encrypted HLS is not fetched.`,
            "fetch.hls.encrypted",
            {
              method: method || "?",
            },
          );
        break;
      }
      case "#EXT-X-BYTERANGE":
        refuse("the playlist uses byte ranges (EXT-X-BYTERANGE), which are not fetched.", "fetch.hls.byteRange");
        break;
      case "#EXT-X-MAP": {
        const map = attributes(value);
        if (map.has("BYTERANGE"))
          refuse("the playlist uses byte ranges (EXT-X-BYTERANGE), which are not fetched.", "fetch.hls.byteRange");
        const uri = map.get("URI");
        if (!uri) refuse("the playlist has an EXT-X-MAP without a URI.", "fetch.hls.badUri", { uri: "" });
        const url = resolve(uri, base);
        if (init && init.toString() !== url.toString())
          refuse("the stream changes its initialisation segment midway, which is not fetched.", "fetch.hls.mapChanges");
        init = url;
        break;
      }
      case "#EXT-X-ENDLIST":
        ended = true;
        break;
      default:
        break;
    }
  }
  if (variants.length > 0 && segments.length > 0)
    refuse("the playlist mixes variant streams and segments.", "fetch.hls.notPlaylist");
  if (variants.length > 0) return { kind: "master", variants };
  return { kind: "media", init, segments, ended };
}

export interface HlsLimits {
  /** The same limit as a single file: all segments together. */
  maxBytes: number;
  maxSegments: number;
}

export interface HlsProgress extends FetchProgress {
  segmentsDone: number;
  segmentsTotal: number;
}

export interface HlsFetched {
  /** The segments (init first) joined into one file, still in their own container (MPEG-TS or fragmented MP4). */
  file: string;
  bytes: number;
  segments: number;
  /** The media playlist's URL, for the stored name. */
  playlistUrl: string;
}

function readPlaylist(file: string, url: string): Playlist {
  const size = fs.statSync(file).size;
  if (size > MAX_PLAYLIST_BYTES)
    refuse(
      `the playlist is ${formatBytes(size)}, over ${formatBytes(MAX_PLAYLIST_BYTES)}.`,
      "fetch.hls.playlistTooLarge",
      {
        size: formatBytes(size),
        limit: formatBytes(MAX_PLAYLIST_BYTES),
      },
    );
  return parsePlaylist(fs.readFileSync(file, "utf8"), new URL(url));
}

/**
 * Fetches an HLS stream with our own code, never ffmpeg's HTTP client: the
 * master playlist (already fetched into `playlistFile`), its highest-bandwidth
 * variant, then the init segment and every segment, each through the
 * SafeFetcher (each address checked, each redirect checked), in order, each
 * appended to one file in `dir`. Refuses live playlists (no EXT-X-ENDLIST),
 * encrypted ones, too many segments and more bytes than the limit.
 */
export async function fetchHlsStream(options: {
  fetcher: SafeFetcher;
  playlistFile: string;
  playlistUrl: string;
  dir: string;
  limits: HlsLimits;
  signal: AbortSignal;
  onProgress: (progress: HlsProgress) => void;
}): Promise<HlsFetched> {
  const { fetcher, dir, limits, signal, onProgress } = options;
  let playlistUrl = options.playlistUrl;
  let playlist = readPlaylist(options.playlistFile, playlistUrl);
  if (playlist.kind === "master") {
    const best = playlist.variants.reduce((top, variant) => (variant.bandwidth > top.bandwidth ? variant : top));
    const variantFile = path.join(dir, "variant.m3u8");
    const fetched = await fetcher.fetchToFile(best.url.toString(), variantFile, {
      signal,
      onProgress: () => undefined,
      maxBytes: MAX_PLAYLIST_BYTES,
    });
    playlistUrl = fetched.finalUrl;
    playlist = readPlaylist(variantFile, playlistUrl);
    if (playlist.kind === "master") refuse("the variant stream is another master playlist.", "fetch.hls.nestedMaster");
  }
  if (!playlist.ended)
    refuse(
      "the playlist is live or still growing (no EXT-X-ENDLIST); only finished streams are fetched.",
      "fetch.hls.live",
    );
  if (playlist.segments.length === 0) refuse("the playlist has no segments.", "fetch.hls.noSegments");
  if (playlist.segments.length > limits.maxSegments)
    refuse(
      `the playlist has ${playlist.segments.length} segments, over the limit of ${limits.maxSegments}.`,
      "fetch.hls.tooManySegments",
      { count: playlist.segments.length, max: limits.maxSegments },
    );

  const parts = [...(playlist.init ? [playlist.init] : []), ...playlist.segments];
  const joined = path.join(dir, playlist.init ? "stream.mp4" : "stream.ts");
  const piece = path.join(dir, "segment");
  fs.writeFileSync(joined, "");
  let bytes = 0;
  for (const [index, url] of parts.entries()) {
    const left = limits.maxBytes - bytes;
    let size: number;
    try {
      ({ size } = await fetcher.fetchToFile(url.toString(), piece, {
        signal,
        maxBytes: left,
        onProgress: (progress) =>
          onProgress({ bytes: bytes + progress.bytes, total: null, segmentsDone: index, segmentsTotal: parts.length }),
      }));
    } catch (error) {
      if (error instanceof FetchRefused && (error.msgCode === "fetch.tooLarge" || error.msgCode === "fetch.overLimit"))
        refuse(`the stream's segments are over the limit of ${formatBytes(limits.maxBytes)}.`, "fetch.hls.tooLarge", {
          limit: formatBytes(limits.maxBytes),
        });
      throw error;
    }
    await pipeline(fs.createReadStream(piece), fs.createWriteStream(joined, { flags: "a" }), { signal });
    fs.rmSync(piece, { force: true });
    bytes += size;
    onProgress({ bytes, total: null, segmentsDone: index + 1, segmentsTotal: parts.length });
  }
  return { file: joined, bytes, segments: parts.length, playlistUrl };
}
