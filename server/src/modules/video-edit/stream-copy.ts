/**
 * When an edit can skip re-encoding: one video clip, cut and nothing else
 * (no titles, burned captions, logo, music, volume change or reframe), from a
 * source whose codecs an MP4 holds as they are and whose size and rate are
 * the output's. The picture is then copied packet for packet from the
 * keyframe at the in point (the render checks that keyframe), and the sound
 * is copied too, or only it is re-encoded when its loudness is normalised.
 */
import type { Edl, VideoClip } from "./edl.schema.js";
import { sourceKey } from "./edl.schema.js";
import { fpsRational } from "./ffmpeg-filter.js";
import { outputFrame } from "./frame.js";
import type { RenderSource } from "./render-graph.js";

export interface StreamCopyCut {
  source: RenderSource;
  start: number;
  duration: number;
  audio: "copy" | "encode" | "none";
  normalize: boolean;
}

export type StreamCopyDecision = { copy: true; cut: StreamCopyCut } | { copy: false; reason: string };

const COPYABLE_VIDEO = ["h264"];

export function streamCopyDecision(edl: Edl, sources: ReadonlyMap<string, RenderSource>): StreamCopyDecision {
  const no = (reason: string): StreamCopyDecision => ({ copy: false, reason });
  if (edl.clips.length !== 1 || edl.clips[0]!.kind !== "video") return no("more than one clip, or not a video");
  const clip = edl.clips[0] as VideoClip;
  if (edl.texts.length > 0) return no("titles are drawn");
  if (edl.captions?.mode === "burn" && edl.captions.cues.length > 0) return no("captions are burned in");
  if (edl.logo) return no("a logo is drawn");
  if (edl.music) return no("music is mixed in");
  if (clip.muted || clip.volume !== 1) return no("the clip's volume changes");
  const source = sources.get(sourceKey(clip.source));
  if (source?.kind !== "video") return no("the source is not a video");
  if (!source.videoCodec || !COPYABLE_VIDEO.includes(source.videoCodec))
    return no(`${source.videoCodec} is re-encoded`);
  if (source.rotation !== 0) return no("the source is rotated");
  const frame = outputFrame(edl.output, source);
  if (frame.width !== source.width || frame.height !== source.height) return no("the picture is resized or reframed");
  if (edl.output.fps && (!source.frameRate || fpsRational(edl.output.fps) !== fpsRational(source.frameRate)))
    return no("the frame rate changes");
  const end = Math.min(clip.out, source.durationSeconds);
  const normalize = edl.audio.normalize;
  const audio = !source.hasAudio ? "none" : source.audioCodec === "aac" && !normalize ? "copy" : "encode";
  return { copy: true, cut: { source, start: clip.in, duration: end - clip.in, audio, normalize } };
}
