/**
 * What the parts of the EDL compiler share: the sources as the render reads
 * them, the inputs and graph lines being built, and the error for an EDL its
 * sources cannot satisfy.
 */
import { Invalid } from "../../http/errors.js";
import { type SourceRef, sourceKey } from "./edl.schema.js";
import { filter } from "./ffmpeg-filter.js";
import type { Frame } from "./text-layout.js";

/** A source as the render reads it: the original of a video or audio story, or a photo prepared as a JPEG/PNG. */
export interface RenderSource {
  path: string;
  kind: "video" | "audio" | "image";
  width: number;
  height: number;
  durationSeconds: number;
  hasAudio: boolean;
  frameRate: number | null;
  videoCodec: string | null;
  audioCodec: string | null;
  rotation: 0 | 90 | 180 | 270;
}

/** A photo prepared for the render (a still we wrote), as a source. */
export function stillSource(path: string, width: number, height: number): RenderSource {
  const none = { durationSeconds: 0, hasAudio: false, frameRate: null, videoCodec: null, audioCodec: null };
  return { path, kind: "image", width, height, ...none, rotation: 0 };
}

/** An input of the ffmpeg command: a media file seeked and cut at the input, or a single picture. */
export interface PlannedInput {
  path: string;
  kind: "media" | "image";
  seek?: number;
  duration?: number;
}

/** An EDL that cannot be rendered with these sources (a clip past its source's end, a photo used as video…). */
export class EdlSourceError extends Invalid {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`${field}: ${message}`, "edl_invalid");
  }
}

/** The source of a story the EDL names; an error naming `field` when it was not provided. */
export function sourceOf(sources: ReadonlyMap<string, RenderSource>, ref: SourceRef, field: string): RenderSource {
  const source = sources.get(sourceKey(ref));
  if (!source) throw new EdlSourceError(field, `the story ${ref.libraryId}/${ref.storyId} is not available`);
  return source;
}

export class GraphBuilder {
  readonly lines: string[] = [];
  readonly inputs: PlannedInput[] = [];

  input(input: PlannedInput): number {
    this.inputs.push(input);
    return this.inputs.length - 1;
  }

  add(...lines: string[]): void {
    this.lines.push(...lines);
  }
}

export interface Context {
  graph: GraphBuilder;
  frame: Frame;
  fps: string;
  sources: ReadonlyMap<string, RenderSource>;
}

/** Every sound is brought to this before it is joined or mixed. */
export const AUDIO_FORMAT = filter("aformat", { sample_fmts: "fltp", sample_rates: 48000, channel_layouts: "stereo" });
