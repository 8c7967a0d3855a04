import { describe, expect, it } from "vitest";
import { EDL_LIMITS, edlSchema, edlSources, outputAspect, timelineDuration } from "./edl.schema.js";
import { buildEdl, ref, videoClip } from "./edl.test-support.js";

const base = { schema: "dams.edl", version: 1 };
const problems = (value: unknown) => {
  const result = edlSchema.safeParse(value);
  return result.success ? [] : result.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
};

describe("the EDL schema", () => {
  it("fills the defaults: 16:9 1080p, cuts, crop in the middle, normalised sound", () => {
    const edl = buildEdl({ clips: [videoClip("a", 0, 5)] });
    expect(edl.output).toEqual({ aspect: "16:9", preset: "1080p" });
    expect(edl.clips[0]).toMatchObject({
      transition: { type: "cut", duration: 0 },
      reframe: { mode: "crop", x: 0.5, y: 0.5 },
      volume: 1,
      muted: false,
    });
    expect(edl.audio.normalize).toBe(true);
    expect(edl.texts).toEqual([]);
  });

  it("renders the vertical preset at 9:16 whatever aspect the list names, and the others at theirs", () => {
    expect(outputAspect({ aspect: "16:9", preset: "vertical" })).toBe("9:16");
    expect(outputAspect({ aspect: "1:1", preset: "vertical" })).toBe("9:16");
    expect(outputAspect({ aspect: "4:5", preset: "720p" })).toBe("4:5");
    expect(outputAspect({ aspect: "16:9", preset: "original" })).toBe("16:9");
  });

  it("names its schema and version, and refuses others", () => {
    expect(problems({ ...base, version: 2, clips: [videoClip("a", 0, 1)] })[0]).toMatch(/^version/);
    expect(problems({ schema: "other", version: 1, clips: [videoClip("a", 0, 1)] })[0]).toMatch(/^schema/);
  });

  it("refuses more than 200 clips, naming the limit", () => {
    const clips = Array.from({ length: EDL_LIMITS.clips + 1 }, (_, index) => videoClip("a", index, index + 1));
    expect(problems({ ...base, clips })).toContain("clips: at most 200 clips");
    expect(problems({ ...base, clips: clips.slice(0, 200) })).toEqual([]);
  });

  it("refuses an edit longer than 3 hours, naming the limit", () => {
    const clips = [videoClip("a", 0, 6000), videoClip("b", 0, 6000)];
    expect(problems({ ...base, clips })).toContain("clips: the edit lasts 12000 s; at most 10800 s (3 hours)");
  });

  it("refuses titles over 500 characters, naming the limit", () => {
    const texts = [{ id: "t", kind: "title", text: "字".repeat(501), start: 0, end: 1 }];
    expect(problems({ ...base, clips: [videoClip("a", 0, 1)], texts })).toContain(
      "texts.0.text: at most 500 characters (the limit for texts)",
    );
  });

  it("refuses an empty edit, out before in, and reversed titles and cues", () => {
    expect(problems({ ...base, clips: [] })).toContain("clips: an edit needs at least one clip");
    expect(problems({ ...base, clips: [videoClip("a", 5, 5)] })).toContain("clips.0.out: out must be after in");
    const texts = [{ id: "t", kind: "title", text: "x", start: 2, end: 1 }];
    const captions = { mode: "burn", cues: [{ start: 3, end: 3, text: "x" }] };
    expect(problems({ ...base, clips: [videoClip("a", 0, 5)], texts, captions })).toEqual([
      "texts.0.end: end must be after start",
      "captions.cues.0.end: end must be after start",
    ]);
  });

  it("holds a transition to half of the shorter clip beside it", () => {
    const clips = (duration: number) => [
      videoClip("a", 0, 2),
      videoClip("b", 0, 6, { transition: { type: "crossfade", duration } }),
    ];
    expect(problems({ ...base, clips: clips(1.5) })).toContain(
      "clips.1.transition.duration: a transition lasts at most half of the shorter clip beside it (1.00 s)",
    );
    expect(problems({ ...base, clips: clips(1) })).toEqual([]);
  });

  it("keeps Ken Burns rectangles inside the picture", () => {
    const clip = {
      id: "p",
      kind: "image",
      source: ref("p"),
      duration: 4,
      kenBurns: { start: { x: 0, y: 0, width: 1 }, end: { x: 0.6, y: 0.1, width: 0.5 } },
    };
    expect(problems({ ...base, clips: [clip] })).toContain(
      "clips.0.kenBurns.end: the rectangle must lie within the picture",
    );
  });

  it("asks an image logo for its photo or a watermark preset, and a text logo for its text (the watermark model's rule)", () => {
    const clips = [videoClip("a", 0, 5)];
    expect(problems({ ...base, clips, logo: { type: 1 } })).toContain(
      "logo.source: an image logo needs its photo story or a watermark preset",
    );
    expect(problems({ ...base, clips, logo: { type: 1, presetId: "8ee29deb-efad-472c-8b5e-725382468d97" } })).toEqual(
      [],
    );
    expect(problems({ ...base, clips, logo: { type: 2, text: "  " } })).toContain(
      "logo.text: please enter watermark text.",
    );
    expect(problems({ ...base, clips, logo: { type: 2, text: "x".repeat(101) } })[0]).toMatch(/at most 100/);
  });

  it("measures the timeline: durations less the transitions' overlaps", () => {
    const edl = buildEdl({
      clips: [
        videoClip("a", 1, 5),
        videoClip("b", 0, 3, { transition: { type: "crossfade", duration: 1 } }),
        { id: "c", kind: "colour", duration: 2, transition: { type: "dipBlack", duration: 0.5 } },
        videoClip("d", 0, 2),
      ],
    });
    expect(timelineDuration(edl.clips)).toBeCloseTo(4 + 3 - 1 + 2 - 0.5 + 2);
  });

  it("lists every story it reads once: clips, logo, music", () => {
    const edl = buildEdl({
      clips: [videoClip("a", 0, 1), videoClip("a", 2, 3), { id: "p", kind: "image", source: ref("p"), duration: 2 }],
      logo: { type: 1, source: ref("logo") },
      music: { source: ref("song") },
    });
    expect(edlSources(edl).map((source) => source.storyId)).toEqual(["a", "p", "logo", "song"]);
  });
});
