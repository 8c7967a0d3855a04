/** Builders of EDLs and render sources for the video editor's tests. */
import type { Edl } from "./edl.schema.js";
import { edlSchema, sourceKey } from "./edl.schema.js";
import { type RenderSource, stillSource } from "./graph-context.js";

export const ref = (storyId: string, libraryId = "material") => ({ libraryId, storyId });

/** An EDL from the parts a test cares about; the schema fills the defaults. */
export function buildEdl(parts: Record<string, unknown>): Edl {
  return edlSchema.parse({ schema: "dams.edl", version: 1, ...parts });
}

export const videoClip = (storyId: string, inPoint: number, outPoint: number, extra: Record<string, unknown> = {}) => ({
  id: `${storyId}-${inPoint}`,
  kind: "video",
  source: ref(storyId),
  in: inPoint,
  out: outPoint,
  ...extra,
});

export function videoSource(path: string, extra: Partial<RenderSource> = {}): RenderSource {
  return {
    path,
    kind: "video",
    width: 1920,
    height: 1080,
    durationSeconds: 60,
    hasAudio: true,
    frameRate: 25,
    videoCodec: "h264",
    audioCodec: "aac",
    rotation: 0,
    ...extra,
  };
}

export const imageSource = (path: string, width = 4000, height = 3000): RenderSource =>
  stillSource(path, width, height);

/** A source map keyed as the compiler looks sources up. */
export function sourceMap(entries: Record<string, RenderSource>): Map<string, RenderSource> {
  return new Map(Object.entries(entries).map(([storyId, source]) => [sourceKey(ref(storyId)), source]));
}
