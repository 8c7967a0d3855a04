/**
 * The video editor's render with the real ffmpeg, on small clips made here
 * with ffmpeg's test sources (320×180 and 640×360, a few seconds each).
 */
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MediaError } from "../../media/media-error.js";
import { hammingDistance, perceptualHash } from "../../media/perceptual-hash.js";
import { RENDER_FONT, SystemVideoRenderTools } from "../../media/video-render.js";
import { buildEdl, ref, videoClip } from "./edl.test-support.js";
import { type LocalSource, renderEdlFile } from "./render-runner.js";
import { drawText } from "./text-layout.js";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dams-video-edit-"));
const file = (name: string) => path.join(dir, name);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const media = new SystemVideoRenderTools({ timeoutMs: 600_000, memoryBytes: 4 * 1024 ** 3, maxPixels: 268_402_689 });

function ffmpeg(args: string[]): string {
  return execFileSync("ffmpeg", ["-hide_banner", "-nostdin", "-y", ...args], { encoding: "utf8", stdio: "pipe" });
}

/** A clip of a test source with a tone; keyframes every second (25 frames). */
function makeClip(name: string, source: string, seconds: number, tone: number, size = "640x360"): void {
  ffmpeg([
    "-loglevel",
    "error",
    "-f",
    "lavfi",
    "-i",
    `${source}=size=${size}:rate=25`,
    "-t",
    String(seconds),
    "-f",
    "lavfi",
    "-i",
    `sine=frequency=${tone}:sample_rate=48000:duration=${seconds}`,
    "-af",
    "volume=-18dB",
    "-c:v",
    "libx264",
    "-preset",
    "ultrafast",
    "-g",
    "25",
    "-pix_fmt",
    "yuv420p",
    "-c:a",
    "aac",
    "-shortest",
    file(name),
  ]);
}

const locals: LocalSource[] = [];
const local = (storyId: string, type: LocalSource["type"], name: string) =>
  locals.push({ ref: ref(storyId), type, path: file(name) });

beforeAll(() => {
  makeClip("bars.mp4", "smptehdbars", 4, 440);
  makeClip("test.mp4", "testsrc2", 6, 660);
  makeClip("mandel.mp4", "mandelbrot", 4, 880);
  makeClip("long.mp4", "testsrc2", 8, 550);
  ffmpeg(
    ["-loglevel", "error", "-f", "lavfi", "-i", "color=c=gray:size=320x180:rate=25:duration=3", "-f", "lavfi"]
      .concat(["-i", "anullsrc=r=48000:cl=stereo", "-t", "3", "-c:v", "libx264", "-preset", "ultrafast"])
      .concat(["-pix_fmt", "yuv420p", "-c:a", "aac", file("grey.mp4")]),
  );
  local("bars", "video", "bars.mp4");
  local("test", "video", "test.mp4");
  local("mandel", "video", "mandel.mp4");
  local("long", "video", "long.mp4");
  local("grey", "video", "grey.mp4");
}, 120_000);

let counter = 0;
async function render(
  parts: Record<string, unknown>,
  options: { signal?: AbortSignal; onProgress?: (p: number) => void } = {},
) {
  const workDir = fs.mkdtempSync(path.join(dir, "work-"));
  const out = file(`out-${++counter}.mp4`);
  const result = await renderEdlFile(buildEdl(parts), locals, out, { workDir, media, font: RENDER_FONT, ...options });
  return { ...result, out };
}

function probe(name: string): { width: number; height: number; frames: number; codec: string; duration: number } {
  const output = execFileSync(
    "ffprobe",
    ["-v", "error", "-select_streams", "v:0", "-count_packets"].concat([
      "-show_entries",
      "stream=width,height,nb_read_packets,codec_name:format=duration",
      "-of",
      "json",
      name,
    ]),
    {
      encoding: "utf8",
    },
  );
  const parsed = JSON.parse(output) as {
    streams: { width: number; height: number; nb_read_packets: string; codec_name: string }[];
    format: { duration: string };
  };
  const stream = parsed.streams[0]!;
  return {
    width: stream.width,
    height: stream.height,
    frames: Number(stream.nb_read_packets),
    codec: stream.codec_name,
    duration: Number(parsed.format.duration),
  };
}

/** One frame as PNG at `time` (accurate seek). */
function frameAt(video: string, time: number): string {
  const out = file(`frame-${++counter}.png`);
  ffmpeg(["-loglevel", "error", "-ss", String(time), "-i", video, "-frames:v", "1", out]);
  return out;
}

/** Mean absolute difference of two images' grey pixels in a region (fractions of the frame). */
async function difference(a: string, b: string, region: { top: number; height: number }): Promise<number> {
  const grey = async (image: string) => {
    const { width = 0, height = 0 } = await sharp(image).metadata();
    const top = Math.round(height * region.top);
    const area = { left: 0, top, width, height: Math.round(height * region.height) };
    return sharp(image).extract(area).greyscale().raw().toBuffer();
  };
  const [x, y] = await Promise.all([grey(a), grey(b)]);
  let total = 0;
  for (let index = 0; index < x.length; index++) total += Math.abs(x[index]! - y[index]!);
  return total / x.length;
}

function integratedLoudness(video: string): number {
  const log = spawnSync("ffmpeg", ["-hide_banner", "-nostats", "-i", video, "-af", "ebur128", "-f", "null", "-"], {
    encoding: "utf8",
  }).stderr;
  return Number(/I:\s+(-?[\d.]+) LUFS/.exec(log.split("Summary:").at(-1) ?? "")?.[1]);
}

describe("rendering an edit with ffmpeg", () => {
  it("renders three clips with a crossfade to the expected length, frames and loudness", async () => {
    const progress: number[] = [];
    const result = await render(
      {
        output: { preset: "720p" },
        clips: [
          videoClip("bars", 0, 3),
          videoClip("test", 1, 5, { transition: { type: "crossfade", duration: 1 } }),
          videoClip("mandel", 0, 3),
        ],
      },
      { onProgress: (percent) => progress.push(percent) },
    );
    expect(result.method).toBe("encode");
    // 3 + 4 − 1 + 3 = 9 s at 25 fps: 225 frames, ±1.
    const facts = probe(result.out);
    expect(Math.abs(facts.frames - 225)).toBeLessThanOrEqual(1);
    expect(Math.abs(facts.duration - 9)).toBeLessThanOrEqual(0.04 + 0.03);
    expect(facts).toMatchObject({ width: 1280, height: 720, codec: "h264" });
    expect(progress.at(-1)).toBe(100);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));

    // At 4.0 s the second clip has played 2 s from its in point (1 s): its source's frame at 3.0 s.
    const rendered = await perceptualHash(frameAt(result.out, 4));
    const expected = await perceptualHash(frameAt(file("test.mp4"), 3));
    const other = await perceptualHash(frameAt(file("mandel.mp4"), 1));
    const bars = await perceptualHash(frameAt(file("bars.mp4"), 1));
    expect(hammingDistance(rendered, expected)).toBeLessThanOrEqual(8);
    expect(hammingDistance(rendered, other)).toBeGreaterThan(16);
    expect(hammingDistance(rendered, bars)).toBeGreaterThan(16);

    // EBU R128: −23 LUFS ± 1 LU.
    expect(Math.abs(integratedLoudness(result.out) - -23)).toBeLessThanOrEqual(1);
  }, 180_000);

  it("burns captions into the caption area only at their cue times", async () => {
    const captions = { mode: "burn", cues: [{ start: 1, end: 2, text: "第一句 caption" }] };
    const result = await render({ output: { preset: "original" }, clips: [videoClip("grey", 0, 3)], captions });
    const [before, during, after] = [0.5, 1.5, 2.5].map((time) => frameAt(result.out, time));
    const captionArea = { top: 0.7, height: 0.3 };
    const rest = { top: 0, height: 0.65 };
    const changed = await difference(before!, during!, captionArea);
    expect(changed).toBeGreaterThan(2);
    expect(await difference(before!, after!, captionArea)).toBeLessThan(0.5);
    expect(await difference(before!, during!, rest)).toBeLessThan(0.5);
  }, 120_000);

  it("exports the vertical preset at 1080×1920", async () => {
    const result = await render({ output: { preset: "vertical" }, clips: [videoClip("bars", 0, 1)] });
    expect(probe(result.out)).toMatchObject({ width: 1080, height: 1920 });
  }, 120_000);

  it("cuts by stream copy from a keyframe: the packets are the source's", async () => {
    // The probe lists the keyframes around the in point in the same ffprobe run (one keyframe a second here),
    // counted from the file's start as -ss counts: an MPEG-TS copy of the picture starts its clock at 1.4 s and
    // lists the same times.
    ffmpeg(["-loglevel", "error", "-i", file("long.mp4"), "-an", "-c", "copy", "-f", "mpegts", file("long.ts")]);
    for (const name of ["long.mp4", "long.ts"]) {
      const { keyframes } = await media.probe(file(name), { keyframesNear: 2.4 });
      const times = (keyframes ?? []).map((time) => Math.round(time * 1000) / 1000);
      expect(times).toEqual(expect.arrayContaining([1, 2, 3]));
      expect(times.every((time) => Number.isInteger(time))).toBe(true);
    }
    const parts = { output: { preset: "original" }, audio: { normalize: false } };
    const copied = await render({ ...parts, clips: [videoClip("long", 2, 6)] });
    expect(copied.method).toBe("copy");
    const packets = (video: string, from: number, count: number) =>
      ffmpeg(
        ["-loglevel", "error", "-ss", String(from), "-i", video, "-map", "0:v:0", "-c", "copy"].concat([
          "-frames:v",
          String(count),
          "-f",
          "framemd5",
          "-",
        ]),
      )
        .split("\n")
        .filter((line) => /^\d/.test(line))
        .map((line) => line.split(",").at(-1)!.trim());
    const output = packets(copied.out, 0, 100);
    expect(output).toHaveLength(100);
    expect(output).toEqual(packets(file("long.mp4"), 2, 100));
    expect(probe(copied.out).frames).toBe(100);

    const reencoded = await render({ ...parts, clips: [videoClip("long", 2.4, 6)] });
    expect(reencoded).toMatchObject({ method: "encode", reason: "the in point is not on a keyframe" });
  }, 120_000);

  it("draws ' : % and \\ literally, exactly as drawtext reads the same text from a file", async () => {
    const text = "It's 100% \\ news: 台风";
    fs.writeFileSync(file("title.txt"), text);
    const common = { font: RENDER_FONT, fontSize: 28, colour: "#FFFFFF", x: "10", y: "10", start: 0, end: 10 };
    const still = (vf: string, name: string) => {
      ffmpeg(["-loglevel", "error", "-i", file("grey.mp4"), "-vf", vf, "-frames:v", "1", file(name)]);
      return fs.readFileSync(file(name));
    };
    const escaped = still(drawText({ ...common, text }), "escaped.png");
    const fromFile = still(drawText({ ...common, text: "", textFile: file("title.txt") }), "textfile.png");
    const plain = still("null", "plain.png");
    expect(escaped.equals(fromFile)).toBe(true);
    expect(escaped.equals(plain)).toBe(false);
  }, 60_000);

  it("stops ffmpeg when cancelled", async () => {
    const controller = new AbortController();
    const started = render(
      { output: { preset: "vertical" }, clips: [videoClip("long", 0, 8, { reframe: { mode: "blur" } })] },
      { signal: controller.signal, onProgress: (percent) => percent > 0 && controller.abort() },
    );
    await expect(started).rejects.toSatisfy((error) => error instanceof MediaError && error.kind === "aborted");
  }, 120_000);
});
