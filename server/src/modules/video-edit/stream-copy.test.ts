import { describe, expect, it } from "vitest";
import { buildEdl, ref, sourceMap, videoClip, videoSource } from "./edl.test-support.js";
import { streamCopyDecision } from "./stream-copy.js";

const sources = sourceMap({
  a: videoSource("/m/a.mp4"),
  hevc: videoSource("/m/h.mp4", { videoCodec: "hevc" }),
  turned: videoSource("/m/t.mp4", { rotation: 90 }),
  silent: videoSource("/m/s.mp4", { hasAudio: false, audioCodec: null }),
  mp3: videoSource("/m/m.mp4", { audioCodec: "mp3" }),
  p: videoSource("/m/p.jpg", { kind: "image" }),
});
const decide = (parts: Record<string, unknown>) => streamCopyDecision(buildEdl(parts), sources);
const plain = { audio: { normalize: false } };

describe("the stream-copy decision", () => {
  it("copies a single trimmed clip of an H.264 source at the output's size", () => {
    expect(decide({ ...plain, clips: [videoClip("a", 10, 25)] })).toEqual({
      copy: true,
      cut: { source: sources.get("material/a@current"), start: 10, duration: 15, audio: "copy", normalize: false },
    });
  });

  it("re-encodes only the sound when its loudness is normalised or it is not AAC", () => {
    expect(decide({ clips: [videoClip("a", 0, 5)] })).toMatchObject({
      copy: true,
      cut: { audio: "encode", normalize: true },
    });
    expect(decide({ ...plain, clips: [videoClip("mp3", 0, 5)] })).toMatchObject({ cut: { audio: "encode" } });
    expect(decide({ ...plain, clips: [videoClip("silent", 0, 5)] })).toMatchObject({ cut: { audio: "none" } });
  });

  it("ends a cut at the source's end", () => {
    expect(decide({ ...plain, clips: [videoClip("a", 50, 60.02)] })).toMatchObject({ cut: { duration: 10 } });
  });

  it.each([
    ["two clips", { clips: [videoClip("a", 0, 5), videoClip("a", 6, 9)] }, "more than one clip"],
    [
      "a title",
      { clips: [videoClip("a", 0, 5)], texts: [{ id: "t", kind: "title", text: "x", start: 0, end: 1 }] },
      "titles",
    ],
    [
      "burned captions",
      { clips: [videoClip("a", 0, 5)], captions: { mode: "burn", cues: [{ start: 0, end: 1, text: "x" }] } },
      "captions",
    ],
    ["a logo", { clips: [videoClip("a", 0, 5)], logo: { type: 2, text: "TV" } }, "logo"],
    ["music", { clips: [videoClip("a", 0, 5)], music: { source: ref("a") } }, "music"],
    ["a volume change", { clips: [videoClip("a", 0, 5, { volume: 0.5 })] }, "volume"],
    ["a mute", { clips: [videoClip("a", 0, 5, { muted: true })] }, "volume"],
    ["HEVC", { clips: [videoClip("hevc", 0, 5)] }, "hevc is re-encoded"],
    ["a rotated source", { clips: [videoClip("turned", 0, 5)] }, "rotated"],
    ["a vertical reframe", { output: { aspect: "9:16" }, clips: [videoClip("a", 0, 5)] }, "reframed"],
    ["720p from 1080p", { output: { preset: "720p" }, clips: [videoClip("a", 0, 5)] }, "resized"],
    ["another frame rate", { output: { fps: 50 }, clips: [videoClip("a", 0, 5)] }, "frame rate"],
  ])("re-encodes with %s", (_, parts, reason) => {
    const decision = decide({ ...plain, ...parts });
    expect(decision.copy).toBe(false);
    if (!decision.copy) expect(decision.reason).toContain(reason);
  });

  it("keeps the original's size with the original-quality preset", () => {
    const small = sourceMap({ a: videoSource("/m/a.mp4", { width: 640, height: 360 }) });
    const edl = buildEdl({ ...plain, output: { preset: "original" }, clips: [videoClip("a", 0, 5)] });
    expect(streamCopyDecision(edl, small).copy).toBe(true);
  });

  it("copies with sidecar captions (they are not in the picture)", () => {
    const captions = { mode: "sidecar", cues: [{ start: 0, end: 1, text: "x" }] };
    expect(decide({ ...plain, clips: [videoClip("a", 0, 5)], captions }).copy).toBe(true);
  });
});
