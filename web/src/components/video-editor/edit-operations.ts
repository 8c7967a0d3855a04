/**
 * The timeline's edits as pure functions of an EDL (docs/video-editor.md):
 * trims, splits, reorders, deletes (every delete ripples: clips follow one
 * another), transitions, titles, and the undo history. Times are seconds;
 * clip `in`/`out` are in the source, everything else on the output timeline.
 */
import {
  type Clip,
  clipDuration,
  EDL_SCHEMA_ID,
  EDL_VERSION,
  type Edl,
  type ImageClip,
  type TextOverlay,
  type TransitionType,
  transitionInto,
} from "./edl";

/** The video editor proper, or the image-to-video editor. */
export type EditorKind = "video" | "slideshow";

export function emptyEdl(title = ""): Edl {
  return {
    schema: EDL_SCHEMA_ID,
    version: EDL_VERSION,
    title,
    output: { aspect: "16:9", preset: "1080p" },
    clips: [],
    texts: [],
    audio: { normalize: true },
  };
}

/** One output frame: the step of the arrow keys and the shortest clip a trim leaves. */
export function frameSeconds(edl: Edl): number {
  return 1 / (edl.output.fps ?? 25);
}

const round = (seconds: number) => Math.round(seconds * 1000) / 1000;

/** Where each clip starts on the output timeline (a transition overlaps a clip with the one before). */
export function clipStarts(clips: readonly Clip[]): number[] {
  const starts: number[] = [];
  let at = 0;
  clips.forEach((clip, index) => {
    at -= transitionInto(clips, index).duration;
    starts.push(round(Math.max(0, at)));
    at += clipDuration(clip);
  });
  return starts;
}

export function totalDuration(clips: readonly Clip[]): number {
  if (clips.length === 0) return 0;
  const starts = clipStarts(clips);
  return round(starts[starts.length - 1]! + clipDuration(clips[clips.length - 1]!));
}

/** The clip shown at time `t` (the later one during a transition) and how far into it `t` is. */
export function clipAt(clips: readonly Clip[], t: number): { index: number; offset: number } | null {
  if (clips.length === 0) return null;
  const starts = clipStarts(clips);
  let index = 0;
  for (let i = 0; i < clips.length; i++) if (starts[i]! <= t + 1e-9) index = i;
  const offset = Math.min(Math.max(0, t - starts[index]!), clipDuration(clips[index]!));
  return { index, offset };
}

/** The source time of a video clip at `offset` seconds into it. */
export function sourceTime(clip: Clip, offset: number): number {
  return clip.kind === "video" ? clip.in + offset : offset;
}

let counter = 0;
/** A clip or title id not yet in the EDL. */
export function newId(prefix: string, edl: Edl): string {
  const taken = new Set([...edl.clips.map((clip) => clip.id), ...edl.texts.map((text) => text.id)]);
  let id: string;
  do {
    counter += 1;
    id = `${prefix}${counter.toString(36)}`;
  } while (taken.has(id));
  return id;
}

/**
 * Keeps the EDL within the schema's transition rules after an edit: the first
 * clip has no transition, and a transition lasts at most half of the shorter
 * clip beside it.
 */
export function normalize(edl: Edl): Edl {
  const clips = edl.clips.map((clip, index) => {
    if (index === 0) return clip.transition.type === "cut" ? clip : { ...clip, transition: cut() };
    if (clip.transition.type === "cut") return clip.transition.duration === 0 ? clip : { ...clip, transition: cut() };
    const limit = Math.min(clipDuration(clip), clipDuration(edl.clips[index - 1]!)) / 2;
    if (clip.transition.duration <= limit) return clip;
    return { ...clip, transition: { ...clip.transition, duration: Math.floor(limit * 100) / 100 } };
  });
  return { ...edl, clips };
}

const cut = () => ({ type: "cut" as const, duration: 0 });

/** Inserts clips after the one at `after` (at the end when absent). */
export function insertClips(edl: Edl, clips: Clip[], after?: number): Edl {
  const at = after === undefined || after < 0 ? edl.clips.length : Math.min(after + 1, edl.clips.length);
  return normalize({ ...edl, clips: [...edl.clips.slice(0, at), ...clips, ...edl.clips.slice(at)] });
}

export function updateClip(edl: Edl, id: string, change: (clip: Clip) => Clip): Edl {
  return normalize({ ...edl, clips: edl.clips.map((clip) => (clip.id === id ? change(clip) : clip)) });
}

/**
 * Trims a video clip to [in, out] within its source (`sourceDuration`, when
 * known), keeping at least one frame; an image or colour clip takes `out - in`
 * as its duration.
 */
export function trimClip(edl: Edl, id: string, range: { in?: number; out?: number }, sourceDuration?: number): Edl {
  const frame = frameSeconds(edl);
  return updateClip(edl, id, (clip) => {
    if (clip.kind !== "video") return clip;
    const end = sourceDuration ?? Number.POSITIVE_INFINITY;
    let start = Math.max(0, range.in ?? clip.in);
    let stop = Math.min(end, range.out ?? clip.out);
    if (range.in !== undefined) start = Math.min(start, stop - frame);
    else stop = Math.max(stop, start + frame);
    return { ...clip, in: round(Math.max(0, start)), out: round(stop) };
  });
}

/** Splits the clip under timeline time `t` in two; null when `t` is within a frame of its ends. */
export function splitAt(edl: Edl, t: number): { edl: Edl; id: string } | null {
  const at = clipAt(edl.clips, t);
  if (!at) return null;
  const clip = edl.clips[at.index]!;
  const frame = frameSeconds(edl);
  const offset = round(at.offset);
  if (offset < frame || clipDuration(clip) - offset < frame) return null;
  const id = newId("c", edl);
  let first: Clip;
  let second: Clip;
  if (clip.kind === "video") {
    first = { ...clip, out: round(clip.in + offset) };
    second = { ...clip, id, in: round(clip.in + offset), transition: cut() };
  } else {
    first = { ...clip, duration: offset };
    second = { ...clip, id, duration: round(clip.duration - offset), transition: cut() };
    if (clip.kind === "image") (second as ImageClip).caption = clip.caption;
  }
  const clips = [...edl.clips];
  clips.splice(at.index, 1, first, second);
  return { edl: normalize({ ...edl, clips }), id };
}

/** Moves a clip `delta` places along the timeline. */
export function moveClip(edl: Edl, id: string, delta: number): Edl {
  const from = edl.clips.findIndex((clip) => clip.id === id);
  const to = from + delta;
  if (from < 0 || to < 0 || to >= edl.clips.length) return edl;
  const clips = [...edl.clips];
  const [moved] = clips.splice(from, 1);
  clips.splice(to, 0, moved!);
  return normalize({ ...edl, clips });
}

/** Removes a clip; the clips after it close the gap (ripple). */
export function removeClip(edl: Edl, id: string): Edl {
  return normalize({ ...edl, clips: edl.clips.filter((clip) => clip.id !== id) });
}

/** The transition into a clip, its duration held to the schema's rule (half of the shorter clip beside it). */
export function setTransition(edl: Edl, id: string, type: TransitionType, duration: number): Edl {
  return updateClip(edl, id, (clip) => ({
    ...clip,
    transition: type === "cut" ? cut() : { type, duration: Math.max(0.04, round(duration)) },
  }));
}

export function addText(edl: Edl, overlay: Omit<TextOverlay, "id">): { edl: Edl; id: string } {
  const id = newId("t", edl);
  return { edl: { ...edl, texts: [...edl.texts, { ...overlay, id }] }, id };
}

export function updateText(edl: Edl, id: string, change: Partial<TextOverlay>): Edl {
  return { ...edl, texts: edl.texts.map((text) => (text.id === id ? { ...text, ...change, id } : text)) };
}

export function removeText(edl: Edl, id: string): Edl {
  return { ...edl, texts: edl.texts.filter((text) => text.id !== id) };
}

/** The texts shown at time `t`. */
export function textsAt(edl: Edl, t: number): TextOverlay[] {
  return edl.texts.filter((text) => text.start <= t && t < text.end);
}

export const KEN_BURNS = ["none", "zoomIn", "zoomOut", "panLeft", "panRight"] as const;
export type KenBurnsPreset = (typeof KEN_BURNS)[number];

/** A slide's pan and zoom by name: the start and end rectangles of the schema. */
export function kenBurns(preset: KenBurnsPreset): ImageClip["kenBurns"] {
  switch (preset) {
    case "zoomIn":
      return { start: { x: 0, y: 0, width: 1 }, end: { x: 0.1, y: 0.1, width: 0.8 } };
    case "zoomOut":
      return { start: { x: 0.1, y: 0.1, width: 0.8 }, end: { x: 0, y: 0, width: 1 } };
    case "panLeft":
      return { start: { x: 0.2, y: 0.1, width: 0.8 }, end: { x: 0, y: 0.1, width: 0.8 } };
    case "panRight":
      return { start: { x: 0, y: 0.1, width: 0.8 }, end: { x: 0.2, y: 0.1, width: 0.8 } };
    default:
      return undefined;
  }
}

/** The preset a slide's rectangles are, or null when they were set otherwise. */
export function kenBurnsPresetOf(clip: ImageClip): KenBurnsPreset | null {
  if (!clip.kenBurns) return "none";
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  return KEN_BURNS.find((preset) => preset !== "none" && same(kenBurns(preset), clip.kenBurns)) ?? null;
}

/** The undo history: what was, what is, what was undone. */
export interface History {
  past: Edl[];
  present: Edl;
  future: Edl[];
}

const HISTORY_LIMIT = 100;

export function commit(history: History, next: Edl): History {
  if (next === history.present) return history;
  return { past: [...history.past, history.present].slice(-HISTORY_LIMIT), present: next, future: [] };
}

export function undo(history: History): History {
  const previous = history.past[history.past.length - 1];
  if (!previous) return history;
  return { past: history.past.slice(0, -1), present: previous, future: [history.present, ...history.future] };
}

export function redo(history: History): History {
  const [next, ...rest] = history.future;
  if (!next) return history;
  return { past: [...history.past, history.present], present: next, future: rest };
}
