import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readMp4Facts } from "./mp4-facts.js";
import { probeMedia } from "./probe.js";
import { DEFAULT_TOOL_LIMITS } from "./run-tool.js";

/** Real files made by ffmpeg; the in-process facts are compared with ffprobe's own (probe.ts). */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dams-mp4-facts-"));
const clip = (name: string) => path.join(dir, name);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function ffmpeg(args: string[]): void {
  execFileSync("ffmpeg", ["-hide_banner", "-loglevel", "error", "-nostdin", "-y", ...args]);
}

const NEAR = 5;

beforeAll(() => {
  const picture = ["-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25:duration=10"];
  const tone = ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=44100:duration=10"];
  // B-frames (veryfast): composition offsets and an edit list, as phones and encoders write them.
  const h264 = ["-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", "-g", "50"];
  ffmpeg([...picture, ...tone, ...h264, "-c:a", "aac", "-shortest", clip("normal.mp4")]);
  ffmpeg(["-i", clip("normal.mp4"), "-c", "copy", "-metadata:s:v:0", "rotate=90", clip("rotated.mp4")]);
  ffmpeg(["-i", clip("normal.mp4"), "-c", "copy", "-an", clip("silent.mp4")]);
  ffmpeg(["-i", clip("normal.mp4"), "-c", "copy", clip("normal.mov")]);
  // NTSC rate, keyframes every 30 frames, faststart.
  ffmpeg([
    ...["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30000/1001:duration=10", ...tone],
    ...h264.slice(0, -1),
    "30",
    ...["-c:a", "aac", "-shortest", "-movflags", "+faststart", clip("ntsc.mp4")],
  ]);
  ffmpeg(["-i", clip("normal.mp4"), "-c", "copy", "-movflags", "frag_keyframe+empty_moov", clip("fragmented.mp4")]);
  ffmpeg(["-i", clip("normal.mp4"), "-c:v", "copy", "-c:a", "libopus", clip("opus.mp4")]);
  ffmpeg(["-i", clip("normal.mp4"), "-c", "copy", clip("normal.mkv")]);
  ffmpeg([...picture, "-t", "1", "-vf", "setsar=4/3", ...h264, clip("anamorphic.mp4")]);
  ffmpeg([...picture, "-t", "1", "-c:v", "mpeg4", clip("mpeg4.mp4")]);
});

describe("readMp4Facts", () => {
  it.each(["normal.mp4", "rotated.mp4", "silent.mp4", "normal.mov", "ntsc.mp4"])(
    "says what ffprobe says about %s",
    async (name) => {
      const file = clip(name);
      const [facts, probe] = await Promise.all([
        readMp4Facts(file, NEAR),
        probeMedia(file, DEFAULT_TOOL_LIMITS, { keyframesNear: NEAR }),
      ]);
      expect(facts).not.toBeNull();
      const { keyframes, durationSeconds, bitRate: _bitRate, ...rest } = facts!;
      const { keyframes: probed = [], durationSeconds: probedDuration, bitRate: _probedBitRate, ...expected } = probe;
      expect(rest).toEqual(expected);
      expect(durationSeconds).toBeCloseTo(probedDuration, 3);
      // ffprobe reads from the keyframe before the window on: what it lists inside the window is among ours.
      const window = probed.filter((time) => time >= NEAR - 2 && time <= NEAR + 2);
      expect(window.length).toBeGreaterThan(0);
      for (const time of window) expect(keyframes!.some((ours) => Math.abs(ours - time) < 1e-4)).toBe(true);
      for (const time of keyframes!) expect(Math.abs(time - NEAR)).toBeLessThanOrEqual(2);
    },
  );

  it.each(["normal.mp4", "normal.mov", "ntsc.mp4"])(
    "answers 'a keyframe at the in point?' as ffprobe does (%s)",
    async (name) => {
      const file = clip(name);
      const { keyframes: ours = [] } = (await readMp4Facts(file, NEAR))!;
      const points = [...ours, ...ours.map((time) => time + 0.5), NEAR + 0.04];
      for (const point of points) {
        const [facts, probe] = await Promise.all([
          readMp4Facts(file, point),
          probeMedia(file, DEFAULT_TOOL_LIMITS, { keyframesNear: point }),
        ]);
        const halfFrame = 0.5 / probe.frameRate!;
        const onKeyframe = (times: number[] = []) => times.some((time) => Math.abs(time - point) <= halfFrame);
        expect({ point, keyframe: onKeyframe(facts!.keyframes) }).toEqual({
          point,
          keyframe: onKeyframe(probe.keyframes),
        });
      }
    },
  );

  it("reads the rotation and the audio codec as the copy decision needs them", async () => {
    const rotated = await readMp4Facts(clip("rotated.mp4"), NEAR);
    expect(rotated).toMatchObject({ width: 180, height: 320, codedWidth: 320, codedHeight: 180 });
    expect([90, 270]).toContain(rotated?.rotation);
    expect(await readMp4Facts(clip("normal.mp4"), NEAR)).toMatchObject({ audioCodec: "aac", videoCodec: "h264" });
    expect(await readMp4Facts(clip("silent.mp4"), NEAR)).toMatchObject({ audioCodec: null });
  });

  it.each(["fragmented.mp4", "opus.mp4", "normal.mkv", "anamorphic.mp4", "mpeg4.mp4"])(
    "leaves %s to ffprobe",
    async (name) => {
      expect(await readMp4Facts(clip(name), NEAR)).toBeNull();
    },
  );

  it("leaves a truncated or missing file to ffprobe", async () => {
    const whole = fs.readFileSync(clip("ntsc.mp4"));
    fs.writeFileSync(clip("cut.mp4"), whole.subarray(0, 2000));
    expect(await readMp4Facts(clip("cut.mp4"), NEAR)).toBeNull();
    expect(await readMp4Facts(clip("absent.mp4"), NEAR)).toBeNull();
  });
});
