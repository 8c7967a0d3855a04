import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { audioWaveform, transcodeAudioProxy } from "./audio.js";
import { probeMedia } from "./probe.js";
import { prlimit } from "./run-tool.js";
import { fitInside, renderPoster, renderThumbnailStrip, transcodeVideoProxy } from "./video.js";

/**
 * Real clips made with ffmpeg's test sources: short and small so the whole
 * file stays within a few seconds on a busy machine.
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dams-video-"));
const clip = (name: string) => path.join(dir, name);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function ffmpeg(args: string[]): void {
  execFileSync("ffmpeg", ["-hide_banner", "-loglevel", "error", "-nostdin", "-y", ...args]);
}

beforeAll(() => {
  const picture = ["-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25:duration=2"];
  const tone = ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=44100:duration=2"];
  const h264 = ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"];
  ffmpeg([...picture, ...tone, ...h264, "-c:a", "aac", "-shortest", clip("normal.mp4")]);
  // A phone held upright: landscape pixels with a 90° display rotation.
  ffmpeg(["-i", clip("normal.mp4"), "-c", "copy", "-metadata:s:v:0", "rotate=90", clip("rotated.mp4")]);
  ffmpeg([...picture, "-c:v", "mpeg4", "-q:v", "5", clip("silent.mkv")]);
  // Non-square pixels, as DV and some broadcast files store them.
  ffmpeg([...picture, "-t", "0.5", "-vf", "setsar=4/3", ...h264, clip("anamorphic.mp4")]);
  ffmpeg([...tone, "-c:a", "aac", "-b:a", "96k", clip("tone.m4a")]);
  ffmpeg(["-f", "lavfi", "-i", "anullsrc=r=22050:cl=mono", "-t", "1", clip("silence.wav")]);
});

/** Top-level MP4 boxes in file order, to check that moov precedes mdat (+faststart). */
function topLevelBoxes(file: string): string[] {
  const data = fs.readFileSync(file);
  const boxes: string[] = [];
  for (let offset = 0; offset + 8 <= data.length; ) {
    let size = data.readUInt32BE(offset);
    const type = data.toString("latin1", offset + 4, offset + 8);
    if (size === 1) size = Number(data.readBigUInt64BE(offset + 8));
    boxes.push(type);
    if (size < 8) break;
    offset += size;
  }
  return boxes;
}

describe("probeMedia", () => {
  it("reads container, codecs, size, rate, duration and bitrate", async () => {
    const probe = await probeMedia(clip("normal.mp4"));
    expect(probe).toMatchObject({
      kind: "video",
      videoCodec: "h264",
      audioCodec: "aac",
      width: 320,
      height: 180,
      frameRate: 25,
      rotation: 0,
      audioChannels: 1,
    });
    expect(probe.container).toContain("mp4");
    expect(probe.durationSeconds).toBeGreaterThan(1.9);
    expect(probe.durationSeconds).toBeLessThan(2.2);
    expect(probe.bitRate).toBeGreaterThan(0);
  });

  it("reports the rotation of a phone clip and its upright size", async () => {
    const probe = await probeMedia(clip("rotated.mp4"));
    expect([90, 270]).toContain(probe.rotation);
    expect({ width: probe.width, height: probe.height, codedWidth: probe.codedWidth }).toEqual({
      width: 180,
      height: 320,
      codedWidth: 320,
    });
  });

  it("tells a clip without sound and a sound file apart", async () => {
    expect(await probeMedia(clip("silent.mkv"))).toMatchObject({
      kind: "video",
      videoCodec: "mpeg4",
      audioCodec: null,
    });
    expect(await probeMedia(clip("tone.m4a"))).toMatchObject({ kind: "audio", videoCodec: null, audioCodec: "aac" });
  });
});

describe("video renditions", () => {
  it("renders a poster frame, upright for the rotated clip", async () => {
    const poster = await renderPoster(clip("normal.mp4"), clip("normal-poster.jpg"));
    expect(await sharp(poster.path).metadata()).toMatchObject({ format: "jpeg", width: 320, height: 180 });
    const turned = await renderPoster(clip("rotated.mp4"), clip("rotated-poster.jpg"));
    expect(await sharp(turned.path).metadata()).toMatchObject({ width: 180, height: 320 });
  });

  it("transcodes an H.264/AAC proxy with faststart, reporting progress up to 100", async () => {
    const progress: number[] = [];
    const proxy = await transcodeVideoProxy(clip("normal.mp4"), clip("normal-proxy.mp4"), {
      onProgress: (percent) => progress.push(percent),
    });
    const probe = await probeMedia(proxy.path);
    expect(probe).toMatchObject({ videoCodec: "h264", audioCodec: "aac", width: 320, height: 180, rotation: 0 });
    const boxes = topLevelBoxes(proxy.path);
    expect(boxes.indexOf("moov")).toBeGreaterThanOrEqual(0);
    expect(boxes.indexOf("moov")).toBeLessThan(boxes.indexOf("mdat"));
    expect(progress.at(-1)).toBe(100);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
  });

  it("turns a rotated clip's pixels upright in the proxy and keeps a clip without sound silent", async () => {
    const rotated = await transcodeVideoProxy(clip("rotated.mp4"), clip("rotated-proxy.mp4"));
    expect(await probeMedia(rotated.path)).toMatchObject({ rotation: 0, width: 180, height: 320, codedWidth: 180 });
    const silent = await transcodeVideoProxy(clip("silent.mkv"), clip("silent-proxy.mp4"));
    expect(silent.hasAudio).toBe(false);
    expect(await probeMedia(silent.path)).toMatchObject({ videoCodec: "h264", audioCodec: null });
  });

  it("gives an anamorphic clip square pixels at its display width", async () => {
    expect(await probeMedia(clip("anamorphic.mp4"))).toMatchObject({ width: 427, height: 180, codedWidth: 320 });
    const proxy = await transcodeVideoProxy(clip("anamorphic.mp4"), clip("anamorphic-proxy.mp4"));
    expect(await probeMedia(proxy.path)).toMatchObject({ width: 428, height: 180, codedWidth: 428 });
  });

  it("fits proxies inside 1080p in either orientation without enlarging", () => {
    expect(fitInside(3840, 2160, 1920, 1080)).toEqual({ width: 1920, height: 1080 });
    expect(fitInside(2160, 3840, 1920, 1080)).toEqual({ width: 1080, height: 1920 });
    expect(fitInside(4000, 3000, 1920, 1080)).toEqual({ width: 1440, height: 1080 });
    expect(fitInside(640, 360, 1920, 1080)).toEqual({ width: 640, height: 360 });
    expect(fitInside(1001, 501, 1920, 1080)).toEqual({ width: 1002, height: 502 });
  });

  it("ends a transcode whose progress callback throws, without taking the process down", async () => {
    const failing = transcodeVideoProxy(clip("normal.mp4"), clip("throwing.mp4"), {
      onProgress: () => {
        throw new Error("the job table is gone");
      },
    });
    await expect(failing).rejects.toMatchObject({ kind: "tool_failed" });
    await expect(failing).rejects.toThrow(/the job table is gone/);
  });

  it("stops a transcode when its signal aborts, and when its time is up", async () => {
    const controller = new AbortController();
    const aborted = transcodeVideoProxy(clip("normal.mp4"), clip("aborted.mp4"), {
      signal: controller.signal,
      onProgress: () => controller.abort(),
    });
    await expect(aborted).rejects.toMatchObject({ kind: "aborted" });
    const slow = transcodeVideoProxy(clip("normal.mp4"), clip("timeout.mp4"), {
      limits: { timeoutMs: 1 },
    });
    await expect(slow).rejects.toMatchObject({ kind: "timeout" });
  });

  it.skipIf(!prlimit())("stops a transcode that needs more memory than its bound", async () => {
    const probe = await probeMedia(clip("normal.mp4"));
    const starved = transcodeVideoProxy(clip("normal.mp4"), clip("starved.mp4"), {
      probe,
      limits: { timeoutMs: 60_000, memoryBytes: 64 * 1024 * 1024 },
    });
    await expect(starved).rejects.toMatchObject({ kind: "too_large" });
  });

  it("renders a thumbnail strip with a JSON index of timestamps", async () => {
    const strip = await renderThumbnailStrip(clip("normal.mp4"), clip("strip"), { count: 4 });
    expect(strip.frames.map((frame) => frame.time)).toEqual([0.25, 0.75, 1.25, 1.75]);
    for (const frame of strip.frames) {
      expect(await sharp(path.join(clip("strip"), frame.file)).metadata()).toMatchObject({
        width: strip.frameWidth,
        height: strip.frameHeight,
      });
    }
    const index = JSON.parse(fs.readFileSync(strip.indexFile, "utf8"));
    expect(index.frames).toHaveLength(4);
    expect(index.frameWidth).toBe(160);
    expect(index.frames.map((frame: { x: number }) => frame.x)).toEqual([0, 160, 320, 480]);
    expect(await sharp(path.join(clip("strip"), index.sprite)).metadata()).toMatchObject({
      width: 4 * strip.frameWidth,
      height: strip.frameHeight,
    });
  });

  it("refuses a poster for a file without pictures", async () => {
    await expect(renderPoster(clip("tone.m4a"), clip("no-poster.jpg"))).rejects.toMatchObject({
      kind: "unsupported_format",
    });
  });
});

describe("audio renditions", () => {
  it("transcodes AAC (m4a) and MP3 proxies, from sound files and from a video's sound track", async () => {
    const m4a = await transcodeAudioProxy(clip("silence.wav"), clip("silence.m4a"));
    expect(await probeMedia(m4a.path)).toMatchObject({ kind: "audio", audioCodec: "aac", audioChannels: 2 });
    const mp3 = await transcodeAudioProxy(clip("tone.m4a"), clip("tone.mp3"), { format: "mp3" });
    expect(await probeMedia(mp3.path)).toMatchObject({ kind: "audio", audioCodec: "mp3" });
    const fromVideo = await transcodeAudioProxy(clip("normal.mp4"), clip("normal-sound.m4a"));
    expect(await probeMedia(fromVideo.path)).toMatchObject({ kind: "audio", audioCodec: "aac" });
  });

  it("computes waveform peaks: a tone is loud throughout, silence is flat", async () => {
    const tone = await audioWaveform(clip("tone.m4a"), { peaks: 50 });
    expect(tone.peaks).toHaveLength(50);
    // sine's default amplitude is 1/8 of full scale.
    expect(Math.min(...tone.peaks.slice(2, -2))).toBeGreaterThan(0.1);
    expect(Math.max(...tone.peaks)).toBeLessThan(0.2);
    const silence = await audioWaveform(clip("silence.wav"), { peaks: 20 });
    expect(silence.peaks).toEqual(new Array(20).fill(0));
  });

  it("refuses a waveform for a clip without sound", async () => {
    await expect(audioWaveform(clip("silent.mkv"))).rejects.toMatchObject({ kind: "unsupported_format" });
  });
});
