/**
 * The EDL compiler: one ffmpeg filter graph over the originals. Each clip is
 * an input of its own, seeked to its in point (frame-exact when transcoding),
 * normalised to the output frame, rate and sample format; runs of cuts are
 * concatenated and runs are joined by xfade/acrossfade; titles, captions and
 * the logo are drawn over the joined picture; the music is mixed (ducked under
 * the clips' sound) and the mix normalised to −23 LUFS. A pure function: it
 * names files and writes text, it runs nothing (docs/video-editor.md).
 */
import { clipStreams, joinClips } from "./clip-graph.js";
import { type Clip, type Edl, type ExportPreset, sourceKey, timelineDuration, transitionInto } from "./edl.schema.js";
import { fpsRational, fpsValue } from "./ffmpeg-filter.js";
import { outputFrame } from "./frame.js";
import {
  type Context,
  EdlSourceError,
  GraphBuilder,
  type PlannedInput,
  type RenderSource,
  sourceOf,
} from "./graph-context.js";
import { drawOverlays, mixAudio } from "./mix-graph.js";
import type { Frame } from "./text-layout.js";

export { clipStarts } from "./clip-graph.js";
export { EdlSourceError, type PlannedInput, type RenderSource } from "./graph-context.js";
export { LOUDNESS } from "./mix-graph.js";

export interface Encoding {
  preset: "veryfast" | "fast" | "medium";
  crf: number;
  audioBitrate: string;
}

export interface RenderPlan {
  inputs: PlannedInput[];
  filterGraph: string;
  /** Labels of the graph's outputs. */
  video: string;
  audio: string;
  frame: Frame;
  /** A rational or decimal frame rate, as ffmpeg takes it. */
  fps: string;
  durationSeconds: number;
  encoding: Encoding;
}

export const ENCODINGS: Record<ExportPreset, Encoding> = {
  "1080p": { preset: "fast", crf: 20, audioBitrate: "192k" },
  "720p": { preset: "fast", crf: 21, audioBitrate: "160k" },
  vertical: { preset: "fast", crf: 20, audioBitrate: "192k" },
  original: { preset: "fast", crf: 17, audioBitrate: "256k" },
};

/** Checks the clips against their sources and returns each clip's duration (a video clip ends at its source's end at most). */
function clipDurations(edl: Edl, sources: ReadonlyMap<string, RenderSource>): number[] {
  return edl.clips.map((clip, index) => {
    const field = `clips[${index}]`;
    if (clip.kind === "colour") return clip.duration;
    const source = sourceOf(sources, clip.source, `${field}.source`);
    if (clip.kind === "image") {
      if (source.kind !== "image") throw new EdlSourceError(`${field}.source`, "an image clip needs a photo");
      return clip.duration;
    }
    if (source.kind !== "video") throw new EdlSourceError(`${field}.source`, "a video clip needs a video");
    const frameSeconds = 1 / (source.frameRate ?? 25);
    if (clip.in >= source.durationSeconds)
      throw new EdlSourceError(`${field}.in`, `the source lasts ${source.durationSeconds.toFixed(2)} s`);
    if (clip.out > source.durationSeconds + frameSeconds)
      throw new EdlSourceError(`${field}.out`, `the source lasts ${source.durationSeconds.toFixed(2)} s`);
    return Math.min(clip.out, source.durationSeconds) - clip.in;
  });
}

/**
 * The clips as rendered: durations (and a video clip's out point) and
 * transitions in whole output frames, so the timeline arithmetic gives the
 * rendered length exactly. Each clip's start and end on the timeline are
 * rounded, not each length, so a slideshow's 0.5 s crossfades (12.5 frames at
 * 25/s) become 12 and 13 frames in turn and the whole stays within a frame of
 * the EDL's length, however many there are.
 */
function effectiveClips(edl: Edl, durations: number[], fps: string): Clip[] {
  const frame = 1 / fpsValue(fps);
  const frames = (value: number) => Math.round(value / frame);
  let exactEnd = 0;
  let end = 0;
  return edl.clips.map((clip, index) => {
    const into = transitionInto(edl.clips, index).duration;
    const exactStart = exactEnd - into;
    exactEnd = exactStart + durations[index]!;
    const overlap = into > 0 ? Math.max(1, end - frames(exactStart)) : 0;
    const start = end - overlap;
    end = Math.max(start + 1, frames(exactEnd));
    const duration = (end - start) * frame;
    const transition =
      clip.transition.type === "cut"
        ? clip.transition
        : {
            ...clip.transition,
            duration: (index === 0 ? Math.max(1, frames(clip.transition.duration)) : overlap) * frame,
          };
    return clip.kind === "video" ? { ...clip, transition, out: clip.in + duration } : { ...clip, transition, duration };
  });
}

/** The first clip with a picture of its own (a video or a photo), for the `original` preset's size. */
function firstVisual(edl: Edl, sources: ReadonlyMap<string, RenderSource>): Frame | undefined {
  for (const clip of edl.clips) {
    if (clip.kind === "colour") continue;
    const source = sources.get(sourceKey(clip.source));
    if (source) return { width: source.width, height: source.height };
  }
  return undefined;
}

/** The output's frame rate: the EDL's, else the first video clip's, else 25. */
export function outputFps(edl: Edl, sources: ReadonlyMap<string, RenderSource>): string {
  if (edl.output.fps) return fpsRational(edl.output.fps);
  for (const clip of edl.clips) {
    if (clip.kind !== "video") continue;
    const rate = sources.get(sourceKey(clip.source))?.frameRate;
    if (rate && rate >= 1 && rate <= 60) return fpsRational(rate);
  }
  return "25";
}

/** Compiles an EDL over its sources (keyed by `sourceKey`) into one ffmpeg filter graph and its inputs. */
export function compileEdl(
  edl: Edl,
  sources: ReadonlyMap<string, RenderSource>,
  options: { font: string },
): RenderPlan {
  const fps = outputFps(edl, sources);
  const clips = effectiveClips(edl, clipDurations(edl, sources), fps);
  const durationSeconds = timelineDuration(clips);
  const context: Context = {
    graph: new GraphBuilder(),
    frame: outputFrame(edl.output, firstVisual(edl, sources)),
    fps,
    sources,
  };
  clips.forEach((clip, index) => {
    clipStreams(context, clip, index);
  });
  const joined = joinClips(context.graph, clips);
  const video = drawOverlays(context, edl, clips, durationSeconds, joined.video, options.font);
  const audio = mixAudio(context, edl, durationSeconds, joined.audio);
  return {
    inputs: context.graph.inputs,
    filterGraph: context.graph.lines.join(";\n"),
    video,
    audio,
    frame: context.frame,
    fps: context.fps,
    durationSeconds,
    encoding: ENCODINGS[edl.output.preset],
  };
}
