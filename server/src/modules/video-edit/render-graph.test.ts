import { describe, expect, it } from "vitest";
import { buildEdl, imageSource, ref, sourceMap, videoClip, videoSource } from "./edl.test-support.js";
import { parseGraph } from "./filter-graph.test-support.js";
import { outputFrame } from "./frame.js";
import { clipStarts, compileEdl, EdlSourceError } from "./render-graph.js";

const font = "Noto Sans CJK SC";
const sources = sourceMap({
  a: videoSource("/m/a.mp4"),
  b: videoSource("/m/b.mp4", { width: 1280, height: 720, hasAudio: false, audioCodec: null }),
  c: videoSource("/m/c.mp4", { width: 1080, height: 1920 }),
  p: imageSource("/m/p.jpg"),
  song: videoSource("/m/song.m4a", { kind: "audio", width: 0, height: 0, durationSeconds: 30, videoCodec: null }),
});
const compile = (parts: Record<string, unknown>) => compileEdl(buildEdl(parts), sources, { font });
const named = (graph: string, name: string) => parseGraph(graph).filter((filter) => filter.name === name);

describe("the graph compiler: trims", () => {
  it("cuts each clip at its input and trims it to whole output frames", () => {
    const plan = compile({ clips: [videoClip("a", 2.5, 6.5), videoClip("b", 1, 3.01)] });
    expect(plan.inputs).toEqual([
      { path: "/m/a.mp4", kind: "media", seek: 2.5, duration: 4 },
      { path: "/m/b.mp4", kind: "media", seek: 1, duration: 2 },
    ]);
    expect(named(plan.filterGraph, "trim").map((trim) => trim.options.duration)).toEqual(["4", "2"]);
    expect(plan.durationSeconds).toBeCloseTo(6);
    // Two clips joined by a cut: one concat of both pictures and sounds.
    const [concat] = named(plan.filterGraph, "concat");
    expect(concat).toMatchObject({ options: { n: "2", v: "1", a: "1" }, inputs: ["v0", "a0", "v1", "a1"] });
  });

  it("gives a clip without sound, or muted, silence of its length", () => {
    const plan = compile({ clips: [videoClip("a", 0, 2, { muted: true }), videoClip("b", 0, 2)] });
    const silences = parseGraph(plan.filterGraph).filter((filter) => filter.name === "anullsrc");
    expect(silences).toHaveLength(2);
    expect(plan.filterGraph).not.toContain("[0:a]");
  });

  it("sets each clip's volume", () => {
    const plan = compile({ clips: [videoClip("a", 0, 2, { volume: 0.5 })] });
    expect(named(plan.filterGraph, "volume")[0]!.options.volume).toBe("0.5");
  });

  it("refuses a clip past its source's end, naming the clip", () => {
    expect(() => compile({ clips: [videoClip("a", 0, 61)] })).toThrow("clips[0].out: the source lasts 60.00 s");
    expect(() => compile({ clips: [videoClip("a", 60, 61)] })).toThrow(EdlSourceError);
    // Up to one frame past the end is the end.
    expect(compile({ clips: [videoClip("a", 59, 60.03)] }).durationSeconds).toBeCloseTo(1);
  });

  it("refuses a photo as a video clip, a video as a photo, and a story it was not given", () => {
    expect(() => compile({ clips: [videoClip("p", 0, 1)] })).toThrow("clips[0].source: a video clip needs a video");
    expect(() => compile({ clips: [{ id: "x", kind: "image", source: ref("a"), duration: 2 }] })).toThrow(
      "an image clip needs a photo",
    );
    expect(() => compile({ clips: [videoClip("zz", 0, 1)] })).toThrow("material/zz is not available");
  });
});

describe("the graph compiler: transitions", () => {
  it("joins runs with xfade at the right offsets and crossfades their sound", () => {
    const plan = compile({
      clips: [
        videoClip("a", 0, 4),
        videoClip("a", 10, 13, { transition: { type: "crossfade", duration: 1 } }),
        videoClip("b", 0, 2),
        videoClip("a", 20, 25, { transition: { type: "dipWhite", duration: 0.48 } }),
      ],
    });
    const xfades = named(plan.filterGraph, "xfade");
    expect(xfades.map((xfade) => xfade.options)).toEqual([
      { transition: "fade", duration: "1", offset: "3" },
      // 4 + 3 − 1 + 2 = 8 s so far; the dip starts 12 frames before its end.
      { transition: "fadewhite", duration: "0.48", offset: "7.52" },
    ]);
    expect(named(plan.filterGraph, "acrossfade").map((fade) => fade.options.d)).toEqual(["1", "0.48"]);
    expect(plan.durationSeconds).toBeCloseTo(12.52);
    expect(
      clipStarts(
        buildEdl({
          clips: [videoClip("a", 0, 4), videoClip("a", 0, 3, { transition: { type: "dipBlack", duration: 1 } })],
        }).clips,
      ),
    ).toEqual([0, 3]);
  });

  it("keeps many transitions of half frames within a frame of the EDL's length (12 and 13 frames in turn)", () => {
    const slide = (index: number) => ({
      id: `s${index}`,
      kind: "image",
      source: ref("p"),
      duration: 4,
      transition: index === 0 ? { type: "cut", duration: 0 } : { type: "crossfade", duration: 0.5 },
    });
    const plan = compile({ clips: Array.from({ length: 8 }, (_, index) => slide(index)) });
    // 8 × 4 s − 7 × 0.5 s = 28.5 s = 712.5 frames: 713 rendered, not 8 × 100 − 7 × 13 = 709.
    expect(plan.durationSeconds).toBeCloseTo(28.52, 6);
    const xfades = named(plan.filterGraph, "xfade").map((xfade) => xfade.options.duration);
    expect(xfades).toEqual(["0.48", "0.52", "0.48", "0.52", "0.48", "0.52", "0.48"]);
    expect(named(plan.filterGraph, "xfade").at(-1)!.options.offset).toBe("24.52");
  });

  it("uses fadeblack for a dip to black", () => {
    const plan = compile({
      clips: [videoClip("a", 0, 2), videoClip("a", 2, 4, { transition: { type: "dipBlack", duration: 0.4 } })],
    });
    expect(named(plan.filterGraph, "xfade")[0]!.options.transition).toBe("fadeblack");
  });

  it("rounds transitions and durations to whole frames (25 fps: 0.05 s → 0.04 s)", () => {
    const plan = compile({
      clips: [videoClip("a", 0, 2), videoClip("a", 2, 4, { transition: { type: "crossfade", duration: 0.05 } })],
    });
    expect(named(plan.filterGraph, "xfade")[0]!.options.duration).toBe("0.04");
    expect(plan.durationSeconds).toBeCloseTo(3.96);
  });
});

describe("the graph compiler: text", () => {
  it("draws a title with ' : % and \\ literally (expansion off, escaped for both levels)", () => {
    const text = "It's 100% \\ news: 台风";
    const plan = compile({
      clips: [videoClip("a", 0, 5)],
      texts: [{ id: "t", kind: "title", text, start: 1, end: 3 }],
    });
    const [draw] = named(plan.filterGraph, "drawtext");
    expect(draw!.options).toMatchObject({ text, expansion: "none", font, enable: "gte(t,1)*lt(t,3)" });
  });

  it("draws a lower third as its name and its role, at the lower left", () => {
    const plan = compile({
      clips: [videoClip("a", 0, 5)],
      texts: [{ id: "t", kind: "lowerThird", text: "李明", subtitle: "新华社记者", start: 0, end: 4 }],
    });
    const draws = named(plan.filterGraph, "drawtext");
    expect(draws.map((draw) => draw.options.text)).toEqual(["李明", "新华社记者"]);
    expect(draws.every((draw) => draw.options.x === "54")).toBe(true);
    expect(Number(draws[0]!.options.fontsize)).toBeGreaterThan(Number(draws[1]!.options.fontsize));
  });

  it("burns each caption cue only at its time, and keeps sidecar captions out of the picture", () => {
    const cues = [
      { start: 0.5, end: 1.5, text: "第一句" },
      { start: 2, end: 3, text: "second" },
    ];
    const burned = compile({ clips: [videoClip("a", 0, 5)], captions: { mode: "burn", cues } });
    expect(named(burned.filterGraph, "drawtext").map((draw) => [draw.options.text, draw.options.enable])).toEqual([
      ["第一句", "gte(t,0.5)*lt(t,1.5)"],
      ["second", "gte(t,2)*lt(t,3)"],
    ]);
    const sidecar = compile({ clips: [videoClip("a", 0, 5)], captions: { mode: "sidecar", cues } });
    expect(named(sidecar.filterGraph, "drawtext")).toEqual([]);
  });

  it("wraps a long title inside the safe area", () => {
    const text = "这是一个非常长的标题，".repeat(8);
    const plan = compile({
      clips: [videoClip("a", 0, 5)],
      texts: [{ id: "t", kind: "title", text, start: 0, end: 2 }],
    });
    const lines = named(plan.filterGraph, "drawtext")[0]!.options.text!.split("\n");
    expect(lines.length).toBeGreaterThan(2);
    expect(lines.join("")).toBe(text);
  });

  it("captions each slide for its time on the timeline", () => {
    const plan = compile({
      clips: [
        { id: "1", kind: "image", source: ref("p"), duration: 3, caption: "第一张" },
        {
          id: "2",
          kind: "image",
          source: ref("p"),
          duration: 3,
          caption: "second",
          transition: { type: "crossfade", duration: 1 },
        },
      ],
    });
    expect(named(plan.filterGraph, "drawtext").map((draw) => draw.options.enable)).toEqual([
      "gte(t,0)*lt(t,3)",
      "gte(t,2)*lt(t,5)",
    ]);
  });
});

describe("the graph compiler: frames and reframes", () => {
  it.each([
    ["16:9", "1080p", 1920, 1080],
    ["9:16", "1080p", 1080, 1920],
    ["1:1", "1080p", 1080, 1080],
    ["4:5", "1080p", 1080, 1350],
    ["16:9", "720p", 1280, 720],
    ["4:5", "720p", 720, 900],
    ["16:9", "vertical", 1080, 1920],
  ] as const)("%s at %s is %i×%i", (aspect, preset, width, height) => {
    expect(outputFrame({ aspect, preset })).toEqual({ width, height });
  });

  it("takes the first clip's shorter side for original quality", () => {
    expect(outputFrame({ aspect: "16:9", preset: "original" }, { width: 3840, height: 2160 })).toEqual({
      width: 3840,
      height: 2160,
    });
    expect(outputFrame({ aspect: "1:1", preset: "original" }, { width: 1281, height: 721 })).toEqual({
      width: 722,
      height: 722,
    });
  });

  it("crops a landscape clip into a vertical frame at its crop position", () => {
    const plan = compile({
      output: { aspect: "9:16" },
      clips: [videoClip("a", 0, 2, { reframe: { mode: "crop", x: 0.25, y: 0.5 } })],
    });
    expect(plan.frame).toEqual({ width: 1080, height: 1920 });
    expect(named(plan.filterGraph, "scale")[0]!.options).toEqual({
      w: "1080",
      h: "1920",
      force_original_aspect_ratio: "increase",
    });
    expect(named(plan.filterGraph, "crop")[0]!.options).toEqual({
      w: "1080",
      h: "1920",
      x: "(iw-1080)*0.25",
      y: "(ih-1920)*0.5",
    });
  });

  it("fits a clip whole over a blurred copy of itself", () => {
    const plan = compile({ output: { aspect: "1:1" }, clips: [videoClip("a", 0, 2, { reframe: { mode: "blur" } })] });
    const graph = parseGraph(plan.filterGraph);
    expect(graph.some((filter) => filter.name === "boxblur")).toBe(true);
    const overlay = graph.find((filter) => filter.name === "overlay")!;
    expect(overlay.options).toEqual({ x: "(W-w)/2", y: "(H-h)/2" });
  });

  it("letterboxes with fit", () => {
    const plan = compile({ output: { aspect: "4:5" }, clips: [videoClip("a", 0, 2, { reframe: { mode: "fit" } })] });
    expect(named(plan.filterGraph, "pad")[0]!.options).toMatchObject({ w: "1080", h: "1350" });
  });

  it("pans and zooms a photo between its two rectangles at twice the frame's size", () => {
    const plan = compile({
      clips: [
        {
          id: "p",
          kind: "image",
          source: ref("p"),
          duration: 2,
          kenBurns: { start: { x: 0, y: 0, width: 1 }, end: { x: 0.2, y: 0.1, width: 0.5 } },
        },
      ],
    });
    expect(plan.inputs).toEqual([{ path: "/m/p.jpg", kind: "image" }]);
    const zoompan = named(plan.filterGraph, "zoompan")[0]!;
    expect(zoompan.options).toEqual({
      z: "1/(1+(-0.5)*min(on/49,1))",
      x: "iw*(0+(0.2)*min(on/49,1))",
      y: "ih*(0+(0.1)*min(on/49,1))",
      d: "50",
      s: "1920x1080",
      fps: "25",
    });
    expect(named(plan.filterGraph, "scale")[0]!.options).toMatchObject({ w: "3840", h: "2160" });
  });

  it("takes the first video clip's frame rate, or the EDL's", () => {
    const ntsc = sourceMap({ a: videoSource("/m/a.mp4", { frameRate: 29.97 }) });
    expect(compileEdl(buildEdl({ clips: [videoClip("a", 0, 1)] }), ntsc, { font }).fps).toBe("30000/1001");
    expect(compileEdl(buildEdl({ output: { fps: 50 }, clips: [videoClip("a", 0, 1)] }), ntsc, { font }).fps).toBe("50");
  });

  it("makes a title card from a colour clip", () => {
    const plan = compile({ clips: [{ id: "c", kind: "colour", colour: "#112233", duration: 2 }] });
    expect(named(plan.filterGraph, "color")[0]!.options).toEqual({ c: "0x112233", s: "1920x1080", r: "25" });
    expect(plan.inputs).toEqual([]);
  });
});

describe("the graph compiler: logo and sound", () => {
  it("overlays an image logo at its corner with its opacity and width", () => {
    const plan = compile({
      clips: [videoClip("a", 0, 2)],
      logo: { type: 1, source: ref("p"), position: "upper-right", opacity: 80, sizePercent: 10 },
    });
    expect(plan.inputs.at(-1)).toEqual({ path: "/m/p.jpg", kind: "image" });
    expect(named(plan.filterGraph, "colorchannelmixer")[0]!.options.aa).toBe("0.8");
    expect(named(plan.filterGraph, "scale").at(-1)!.options).toEqual({ w: "192", h: "-2" });
    expect(named(plan.filterGraph, "overlay").at(-1)!.options).toEqual({ x: "W-w-22", y: "22", format: "auto" });
  });

  it("draws a text logo for the whole edit", () => {
    const plan = compile({
      clips: [videoClip("a", 0, 2)],
      logo: { type: 2, text: "电视台", position: "arbitrary", x: 0.1, y: 0.2, opacity: 50 },
    });
    const draw = named(plan.filterGraph, "drawtext")[0]!;
    expect(draw.options).toMatchObject({ text: "电视台", x: "192", y: "216", fontcolor: "0xFFFFFF@0.5" });
  });

  it("mixes the music faded, delayed and ducked under the clips' sound, then normalises", () => {
    const plan = compile({
      clips: [videoClip("a", 0, 10)],
      music: { source: ref("song"), in: 5, start: 2, volume: 0.6, fadeIn: 1, fadeOut: 2 },
    });
    expect(plan.inputs.at(-1)).toEqual({ path: "/m/song.m4a", kind: "media", seek: 5, duration: 8 });
    const graph = parseGraph(plan.filterGraph);
    expect(graph.filter((filter) => filter.name === "afade").map((fade) => fade.options)).toEqual([
      { t: "in", st: "0", d: "1" },
      { t: "out", st: "6", d: "2" },
    ]);
    expect(graph.find((filter) => filter.name === "adelay")!.options).toEqual({ delays: "2000", all: "1" });
    expect(graph.find((filter) => filter.name === "sidechaincompress")!.inputs).toEqual(["music", "key"]);
    expect(graph.find((filter) => filter.name === "loudnorm")!.options).toEqual({ I: "-23", TP: "-2", LRA: "11" });
  });

  it("mixes without ducking and leaves loudness alone when asked", () => {
    const plan = compile({
      clips: [videoClip("a", 0, 10)],
      music: { source: ref("song"), ducking: false },
      audio: { normalize: false },
    });
    const names = parseGraph(plan.filterGraph).map((filter) => filter.name);
    expect(names).toContain("amix");
    expect(names).not.toContain("sidechaincompress");
    expect(names).not.toContain("loudnorm");
  });

  it("refuses music from a story without sound", () => {
    expect(() => compile({ clips: [videoClip("a", 0, 2)], music: { source: ref("b") } })).toThrow(
      "music.source: the music's story has no sound",
    );
  });
});
