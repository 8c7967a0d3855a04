/**
 * Turns a checked EDL and the local files of its stories into one MP4: photos
 * are prepared as stills, video and audio are probed, then the edit is either
 * cut by stream copy (one clip, only cuts, from a keyframe) or compiled into a
 * filter graph and rendered. The media work goes through `VideoRenderTools`
 * (server/src/media), so this stays free of child processes.
 */
import path from "node:path";
import type { MediaProbe, RenderResult, VideoRenderTools } from "../../media/index.js";
import { type Edl, type SourceRef, sourceKey } from "./edl.schema.js";
import { KEN_BURNS_SUPERSAMPLE } from "./frame.js";
import { stillSource } from "./graph-context.js";
import { compileEdl, EdlSourceError, type RenderSource } from "./render-graph.js";
import { streamCopyDecision } from "./stream-copy.js";

/** A story of the EDL as a local file: its type decides how it is read. */
export interface LocalSource {
  ref: SourceRef;
  type: "photo" | "video" | "audio";
  path: string;
}

export interface RenderedEdit extends RenderResult {
  method: "copy" | "encode";
  width: number;
  height: number;
  /** Why the edit was re-encoded rather than copied. */
  reason: string | null;
  /** The poster frame, when the EDL chose one. */
  posterPath: string | null;
}

/** The long edge photos are prepared at: twice the largest frame of the preset, so pans and zooms stay sharp. */
function stillLongEdge(edl: Edl): number {
  const longest = edl.output.preset === "original" ? 3840 : edl.output.preset === "720p" ? 1280 : 1920;
  return longest * KEN_BURNS_SUPERSAMPLE;
}

/** A video or audio file as a source of the compiler, from its probe. */
export function probedSource(file: string, probe: MediaProbe): RenderSource {
  return {
    path: file,
    kind: probe.kind,
    width: probe.width ?? 0,
    height: probe.height ?? 0,
    durationSeconds: probe.durationSeconds,
    hasAudio: probe.audioCodec !== null,
    frameRate: probe.frameRate,
    videoCodec: probe.videoCodec,
    audioCodec: probe.audioCodec,
    rotation: probe.rotation,
  };
}

/** The in point of an edit that may be a stream copy (one video clip): its source's probe lists the keyframes there. */
function copyCandidate(edl: Edl): { key: string; time: number } | null {
  const [clip, ...rest] = edl.clips;
  return clip?.kind === "video" && rest.length === 0 ? { key: sourceKey(clip.source), time: clip.in } : null;
}

async function renderSources(
  edl: Edl,
  locals: readonly LocalSource[],
  workDir: string,
  media: VideoRenderTools,
  signal?: AbortSignal,
): Promise<{ sources: Map<string, RenderSource>; keyframes: number[] }> {
  const logoKey = edl.logo?.type === 1 && edl.logo.source ? sourceKey(edl.logo.source) : null;
  const candidate = copyCandidate(edl);
  const sources = new Map<string, RenderSource>();
  let keyframes: number[] = [];
  for (const [index, local] of locals.entries()) {
    signal?.throwIfAborted();
    const key = sourceKey(local.ref);
    if (local.type === "photo") {
      const isLogo = key === logoKey;
      const still = await media.still(local.path, path.join(workDir, `still-${index}.${isLogo ? "png" : "jpg"}`), {
        longEdge: isLogo ? 1920 : stillLongEdge(edl),
        keepAlpha: isLogo,
      });
      sources.set(key, stillSource(still.path, still.width, still.height));
      continue;
    }
    const keyframesNear = key === candidate?.key ? candidate.time : undefined;
    const probe = await media.probe(local.path, { signal, keyframesNear });
    if (keyframesNear !== undefined) keyframes = probe.keyframes ?? [];
    sources.set(key, probedSource(local.path, probe));
  }
  return { sources, keyframes };
}

export interface RenderEdlOptions {
  workDir: string;
  media: VideoRenderTools;
  font: string;
  signal?: AbortSignal;
  onProgress?: (percent: number) => void;
}

/** Renders `edl` over `locals` to `out` (in `workDir`, which the caller removes). */
export async function renderEdlFile(
  edl: Edl,
  locals: readonly LocalSource[],
  out: string,
  options: RenderEdlOptions,
): Promise<RenderedEdit> {
  const { media, workDir, signal, onProgress } = options;
  const { sources, keyframes } = await renderSources(edl, locals, workDir, media, signal);
  const checkPoster = (duration: number) => {
    if (edl.poster && edl.poster.time > duration)
      throw new EdlSourceError("poster.time", `the edit lasts ${duration.toFixed(2)} s`);
  };
  const decision = streamCopyDecision(edl, sources);
  let result: RenderedEdit | undefined;
  let reason = decision.copy ? null : decision.reason;
  if (decision.copy) {
    const { cut } = decision;
    const halfFrame = 0.5 / (cut.source.frameRate ?? 25);
    if (keyframes.some((time) => Math.abs(time - cut.start) <= halfFrame)) {
      checkPoster(cut.duration);
      const copied = await media.copyCut({ ...cut, path: cut.source.path }, out, { signal, onProgress });
      const size = { width: cut.source.width, height: cut.source.height };
      result = { ...copied, ...size, method: "copy", reason: null, posterPath: null };
    } else reason = "the in point is not on a keyframe";
  }
  if (!result) {
    const plan = compileEdl(edl, sources, { font: options.font });
    checkPoster(plan.durationSeconds);
    const rendered = await media.renderEdit(plan, out, { workDir, signal, onProgress });
    result = { ...rendered, ...plan.frame, method: "encode", reason, posterPath: null };
  }
  if (edl.poster)
    result.posterPath = (await media.frameAt(out, edl.poster.time, path.join(workDir, "poster.jpg"), { signal })).path;
  return result;
}
