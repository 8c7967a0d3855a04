/**
 * The facts the stream-copy decision needs, read in process from an MP4/MOV's
 * `moov` box (no ffprobe start-up): codecs, size, rotation, rate, duration and
 * the picture's keyframes near a time. A small reader of our own, bounded (the
 * `moov` at most 64 MiB, counts checked against box sizes); anything it does
 * not know — another container, a fragmented file, edit lists other than one
 * plain edit, several pictures, a non-square or flipped picture, codecs other
 * than H.264/AAC — gives `null`, and the caller asks ffprobe as before.
 */
import fs from "node:fs/promises";
import type { MediaProbe } from "./probe.js";

const MAX_MOOV_BYTES = 64 * 1024 * 1024;
const MAX_TOP_LEVEL_BOXES = 64;
/** How far around the time the keyframes are listed (ffprobe's window in probe.ts). */
const KEYFRAME_WINDOW_SECONDS = 2;
/** ffprobe's format_name for the whole MP4/MOV family. */
const MOV_FAMILY = "mov,mp4,m4a,3gp,3g2,mj2";

/** Not something this reader handles: the caller falls back to ffprobe. */
class Unhandled extends Error {}

interface Box {
  type: string;
  /** The payload (after the header). */
  data: Buffer;
}

function unhandled(): never {
  throw new Unhandled();
}

function boxesIn(data: Buffer): Box[] {
  const boxes: Box[] = [];
  let offset = 0;
  while (offset + 8 <= data.length) {
    let size = data.readUInt32BE(offset);
    let header = 8;
    if (size === 1) {
      if (offset + 16 > data.length) unhandled();
      size = Number(data.readBigUInt64BE(offset + 8));
      header = 16;
    } else if (size === 0) size = data.length - offset;
    if (size < header || offset + size > data.length) unhandled();
    boxes.push({
      type: data.toString("latin1", offset + 4, offset + 8),
      data: data.subarray(offset + header, offset + size),
    });
    offset += size;
  }
  return boxes;
}

function child(boxes: readonly Box[], type: string): Box | undefined {
  return boxes.find((box) => box.type === type);
}

function need(box: Box | undefined): Box {
  return box ?? unhandled();
}

/** A full box's entries after version/flags and the count, each `entrySize` bytes; the count checked against the size. */
function entries(
  box: Box,
  entrySize: number,
  headerBytes = 8,
): { version: number; count: number; at: (i: number) => number } {
  if (box.data.length < headerBytes) unhandled();
  const count = box.data.readUInt32BE(headerBytes - 4);
  if (headerBytes + count * entrySize > box.data.length) unhandled();
  return { version: box.data[0]!, count, at: (i) => headerBytes + i * entrySize };
}

/** Reads ftyp … moov from the start of the file; null when it is not a plain MP4/MOV. */
async function readMoov(file: string): Promise<{ moov: Buffer; fileBytes: number }> {
  const handle = await fs.open(file, "r");
  try {
    const { size: fileBytes } = await handle.stat();
    const header = Buffer.alloc(16);
    let offset = 0;
    for (let index = 0; index < MAX_TOP_LEVEL_BOXES && offset + 8 <= fileBytes; index++) {
      const { bytesRead } = await handle.read(header, 0, 16, offset);
      if (bytesRead < 8) unhandled();
      let size = header.readUInt32BE(0);
      const type = header.toString("latin1", 4, 8);
      let headerBytes = 8;
      if (size === 1) {
        if (bytesRead < 16) unhandled();
        size = Number(header.readBigUInt64BE(8));
        headerBytes = 16;
      } else if (size === 0) size = fileBytes - offset;
      if (size < headerBytes || offset + size > fileBytes) unhandled();
      if (index === 0 && type !== "ftyp") unhandled();
      if (type === "moof") unhandled();
      if (type === "moov") {
        const length = size - headerBytes;
        if (length > MAX_MOOV_BYTES) unhandled();
        const moov = Buffer.alloc(length);
        const read = await handle.read(moov, 0, length, offset + headerBytes);
        if (read.bytesRead !== length) unhandled();
        return { moov, fileBytes };
      }
      offset += size;
    }
    return unhandled();
  } finally {
    await handle.close();
  }
}

interface Track {
  handler: string;
  timescale: number;
  mediaDuration: number;
  sampleEntry: Box;
  stbl: Box[];
  /** The one plain edit's media start (0 without an edit list) and its length in movie time. */
  mediaStart: number;
  editDuration: number | null;
  hasEdit: boolean;
  matrix: [number, number, number, number];
}

function readTrack(trak: Box): Track {
  const boxes = boxesIn(trak.data);
  const tkhd = need(child(boxes, "tkhd")).data;
  const matrixAt = tkhd[0] === 1 ? 52 : 40;
  if (tkhd.length < matrixAt + 36) unhandled();
  const matrix: Track["matrix"] = [0, 1, 3, 4].map((i) => tkhd.readInt32BE(matrixAt + i * 4)) as Track["matrix"];
  const mdia = boxesIn(need(child(boxes, "mdia")).data);
  const mdhd = need(child(mdia, "mdhd")).data;
  const v1 = mdhd[0] === 1;
  if (mdhd.length < (v1 ? 32 : 20)) unhandled();
  const timescale = mdhd.readUInt32BE(v1 ? 20 : 12);
  const mediaDuration = v1 ? Number(mdhd.readBigUInt64BE(24)) : mdhd.readUInt32BE(16);
  const hdlr = need(child(mdia, "hdlr")).data;
  if (hdlr.length < 12 || timescale <= 0) unhandled();
  const handler = hdlr.toString("latin1", 8, 12);
  const stbl = boxesIn(need(child(boxesIn(need(child(mdia, "minf")).data), "stbl")).data);
  const stsd = need(child(stbl, "stsd"));
  if (stsd.data.length < 8 || stsd.data.readUInt32BE(4) !== 1) unhandled();
  const [sampleEntry] = boxesIn(stsd.data.subarray(8));
  let mediaStart = 0;
  let editDuration: number | null = null;
  const edts = child(boxes, "edts");
  const elst = edts ? child(boxesIn(edts.data), "elst") : undefined;
  if (elst) {
    const list = entries(elst, elst.data[0] === 1 ? 20 : 12);
    if (list.count !== 1) unhandled();
    const at = list.at(0);
    const data = elst.data;
    editDuration = list.version === 1 ? Number(data.readBigUInt64BE(at)) : data.readUInt32BE(at);
    mediaStart = list.version === 1 ? Number(data.readBigInt64BE(at + 8)) : data.readInt32BE(at + 4);
    const rate = data.readInt32BE(at + (list.version === 1 ? 16 : 8));
    if (mediaStart < 0 || rate !== 0x10000) unhandled();
  } else if (edts) unhandled();
  return {
    handler,
    timescale,
    mediaDuration,
    sampleEntry: need(sampleEntry),
    stbl,
    mediaStart,
    editDuration,
    hasEdit: elst !== undefined,
    matrix,
  };
}

/** Sample-number-ordered runs of (count, value) from stts or ctts. */
function runs(box: Box | undefined, signed: boolean): Array<[number, number]> {
  if (!box) return [];
  const list = entries(box, 8);
  const out: Array<[number, number]> = [];
  for (let i = 0; i < list.count; i++) {
    const at = list.at(i);
    out.push([box.data.readUInt32BE(at), signed ? box.data.readInt32BE(at + 4) : box.data.readUInt32BE(at + 4)]);
  }
  return out;
}

/** A walker over runs: the sum of values before sample n (stts: dts) or the value at sample n (ctts), n ascending. */
function runWalker(list: Array<[number, number]>) {
  let run = 0;
  let firstOfRun = 0;
  let sumBefore = 0;
  return {
    dts(n: number): number {
      while (run < list.length && n >= firstOfRun + list[run]![0]) {
        sumBefore += list[run]![0] * list[run]![1];
        firstOfRun += list[run]![0];
        run++;
      }
      if (run >= list.length) unhandled();
      return sumBefore + (n - firstOfRun) * list[run]![1];
    },
    value(n: number): number {
      while (run < list.length && n >= firstOfRun + list[run]![0]) {
        firstOfRun += list[run]![0];
        run++;
      }
      return run < list.length ? list[run]![1] : 0;
    },
  };
}

/** Presentation times (media timescale units) of the given 0-based samples, ascending numbers. */
function presentationTimes(track: Track, samples: Iterable<number>): number[] {
  const stts = runs(child(track.stbl, "stts"), false);
  const ctts = runs(child(track.stbl, "ctts"), true);
  const decode = runWalker(stts);
  const offset = runWalker(ctts);
  const times: number[] = [];
  for (const n of samples) times.push(decode.dts(n) + offset.value(n));
  return times;
}

function sampleCount(track: Track): number {
  return runs(child(track.stbl, "stts"), false).reduce((sum, [count]) => sum + count, 0);
}

/** Where the track starts on ffmpeg's timeline, in seconds. */
function trackStart(track: Track): number {
  if (track.hasEdit) return 0;
  const count = Math.min(16, sampleCount(track));
  const first = presentationTimes(
    track,
    Array.from({ length: count }, (_, i) => i),
  );
  return first.length > 0 ? Math.min(...first) / track.timescale : 0;
}

function trackSeconds(track: Track, movieTimescale: number): number {
  if (track.editDuration !== null && movieTimescale > 0) return track.editDuration / movieTimescale;
  return track.mediaDuration / track.timescale;
}

/** The sample entry's children start after its fixed fields. */
function entryChildren(entry: Box, fixedBytes: number): Box[] {
  if (entry.data.length < fixedBytes) unhandled();
  return boxesIn(entry.data.subarray(fixedBytes));
}

/** The object type of an esds (ISO 14496-1 descriptors) and the channel configuration of its AAC config, if any. */
function esdsFacts(esds: Buffer): { objectType: number; channelConfig: number | null } {
  let at = 4;
  const descriptor = (tag: number): boolean => {
    if (esds[at] !== tag) return false;
    at++;
    for (let i = 0; i < 4 && (esds[at++]! & 0x80) !== 0; i++);
    return true;
  };
  if (!descriptor(0x03)) unhandled();
  const flags = esds[at + 2] ?? unhandled();
  at += 3;
  if (flags & 0x80) at += 2;
  if (flags & 0x40) at += 1 + (esds[at] ?? 0);
  if (flags & 0x20) at += 2;
  if (!descriptor(0x04)) unhandled();
  const objectType = esds[at] ?? unhandled();
  at += 13;
  if (!descriptor(0x05) || at + 2 > esds.length) return { objectType, channelConfig: null };
  // AudioSpecificConfig: object type (5 bits, 31 = escape), rate index (4 bits, 15 = 24-bit rate), channels (4 bits).
  let bit = at * 8;
  const read = (bits: number): number => {
    let value = 0;
    for (let i = 0; i < bits; i++, bit++)
      value = (value << 1) | (((esds[bit >> 3] ?? unhandled()) >> (7 - (bit & 7))) & 1);
    return value;
  };
  if (read(5) === 31) read(6);
  if (read(4) === 15) read(24);
  return { objectType, channelConfig: read(4) };
}

const AAC_OBJECT_TYPES = [0x40, 0x66, 0x67, 0x68];

function audioFacts(track: Track): { channels: number; sampleRate: number } {
  const entry = track.sampleEntry;
  if (entry.type !== "mp4a" || entry.data.length < 28) unhandled();
  const version = entry.data.readUInt16BE(8);
  const fixed = version === 0 ? 28 : version === 1 ? 44 : version === 2 ? 64 : unhandled();
  const children = entryChildren(entry, fixed);
  const wave = child(children, "wave");
  const esds = need(child(children, "esds") ?? (wave ? child(boxesIn(wave.data), "esds") : undefined));
  const { objectType, channelConfig } = esdsFacts(esds.data);
  if (!AAC_OBJECT_TYPES.includes(objectType)) unhandled();
  const sampleRate = version === 2 ? entry.data.readDoubleBE(32) : entry.data.readUInt32BE(24) / 0x10000;
  // The AAC config's channel layout wins over the sample entry's count (which MP4 writers fix at 2), as in ffmpeg.
  const entryChannels = version === 2 ? entry.data.readUInt32BE(40) : entry.data.readUInt16BE(16);
  const channels =
    channelConfig !== null && channelConfig >= 1 && channelConfig <= 7
      ? channelConfig === 7
        ? 8
        : channelConfig
      : entryChannels;
  return { channels, sampleRate: Math.round(sampleRate) };
}

function rotationOf([a, b, c, d]: Track["matrix"]): 0 | 90 | 180 | 270 {
  const one = 0x10000;
  if (a === one && b === 0 && c === 0 && d === one) return 0;
  // Clockwise atan2(b, a): probe.ts negates ffprobe's rotation, which is -atan2(b, a).
  if (a === 0 && b === one && c === -one && d === 0) return 90;
  if (a === -one && b === 0 && c === 0 && d === -one) return 180;
  if (a === 0 && b === -one && c === one && d === 0) return 270;
  return unhandled();
}

function keyframesNear(video: Track, start: number, near: number): number[] {
  const total = sampleCount(video);
  const stss = child(video.stbl, "stss");
  let sync: number[];
  if (stss) {
    const list = entries(stss, 4);
    sync = Array.from({ length: list.count }, (_, i) => stss.data.readUInt32BE(list.at(i)) - 1);
    if (sync.some((n, i) => n < 0 || n >= total || (i > 0 && n <= sync[i - 1]!))) unhandled();
  } else sync = Array.from({ length: total }, (_, i) => i);
  const times = presentationTimes(video, sync).map((pts) => (pts - video.mediaStart) / video.timescale - start);
  return times.filter((time) => time >= near - KEYFRAME_WINDOW_SECONDS && time <= near + KEYFRAME_WINDOW_SECONDS);
}

function factsOf(moov: Buffer, fileBytes: number, near: number): MediaProbe {
  const boxes = boxesIn(moov);
  if (child(boxes, "mvex")) unhandled();
  const mvhd = need(child(boxes, "mvhd")).data;
  if (mvhd.length < 20) unhandled();
  const movieTimescale = mvhd.readUInt32BE(mvhd[0] === 1 ? 20 : 12);
  const tracks = boxes.filter((box) => box.type === "trak").map(readTrack);
  const videos = tracks.filter((track) => track.handler === "vide");
  const audio = tracks.find((track) => track.handler === "soun");
  if (videos.length !== 1) unhandled();
  const video = videos[0]!;
  if (!["avc1", "avc3"].includes(video.sampleEntry.type) || video.sampleEntry.data.length < 78) unhandled();
  const pasp = child(entryChildren(video.sampleEntry, 78), "pasp");
  if (pasp && (pasp.data.length < 8 || pasp.data.readUInt32BE(0) !== pasp.data.readUInt32BE(4))) unhandled();
  const codedWidth = video.sampleEntry.data.readUInt16BE(24);
  const codedHeight = video.sampleEntry.data.readUInt16BE(26);
  if (codedWidth === 0 || codedHeight === 0) unhandled();
  const rotation = rotationOf(video.matrix);
  const sound = audio ? audioFacts(audio) : null;
  const stts = runs(child(video.stbl, "stts"), false);
  const frames = stts.reduce((sum, [count]) => sum + count, 0);
  const ticks = stts.reduce((sum, [count, delta]) => sum + count * delta, 0);
  if (frames === 0 || ticks === 0) unhandled();
  const frameRate = Math.round(((frames * video.timescale) / ticks) * 1000) / 1000;
  const playing = audio ? [video, audio] : [video];
  const start = Math.min(...playing.map(trackStart));
  const end = Math.max(...playing.map((track) => trackStart(track) + trackSeconds(track, movieTimescale)));
  const durationSeconds = end - start;
  if (!(durationSeconds > 0)) unhandled();
  const turned = rotation === 90 || rotation === 270;
  return {
    kind: "video",
    container: MOV_FAMILY,
    durationSeconds,
    bitRate: Math.round((fileBytes * 8) / durationSeconds),
    videoCodec: "h264",
    audioCodec: sound ? "aac" : null,
    width: turned ? codedHeight : codedWidth,
    height: turned ? codedWidth : codedHeight,
    codedWidth,
    codedHeight,
    frameRate,
    rotation,
    audioChannels: sound?.channels ?? null,
    audioSampleRate: sound?.sampleRate ?? null,
    keyframes: keyframesNear(video, start, near),
  };
}

/**
 * The probe of an H.264 (+ AAC) MP4/MOV with its keyframes near `near`, read
 * from its `moov`; null when the file is anything else (then ask ffprobe).
 */
export async function readMp4Facts(file: string, near: number): Promise<MediaProbe | null> {
  try {
    const { moov, fileBytes } = await readMoov(file);
    return factsOf(moov, fileBytes, near);
  } catch {
    // Unhandled, a short or malformed box (RangeError), an unreadable file: ffprobe decides and reports.
    return null;
  }
}
