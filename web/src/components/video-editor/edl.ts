/**
 * The edit decision list of the server (server/src/modules/video-edit/edl.schema.ts):
 * the same zod schema checks the editor's list before it is sent, so a refusal
 * shows in the editor with the field and the limit named, as the server would.
 */
import { type Edl as EdlType, edlSchema as schema } from "../../../../server/src/modules/video-edit/edl.schema";

export {
  ASPECTS,
  type Aspect,
  type Clip,
  type ColourClip,
  clipDuration,
  type DraftEdl,
  draftEdlSchema,
  EDL_LIMITS,
  EDL_SCHEMA_ID,
  EDL_VERSION,
  type Edl,
  EXPORT_PRESETS,
  type ExportPreset,
  edlSchema,
  type ImageClip,
  type KenBurnsRect,
  LOGO_POSITIONS,
  type Logo,
  outputAspect,
  type SourceRef,
  sourceKey,
  type TextOverlay,
  TRANSITIONS,
  type TransitionType,
  timelineDuration,
  transitionInto,
  type VideoClip,
} from "../../../../server/src/modules/video-edit/edl.schema";

/** `["clips", 2, "out"]` → `clips[2].out`, the way the server names a field. */
export function fieldName(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (name, part) => (typeof part === "number" ? `${name}[${part}]` : name ? `${name}.${String(part)}` : String(part)),
    "",
  );
}

/** The EDL as the server would take it, or the problems, each naming its field. */
export function validateEdl(edl: unknown): { ok: true; edl: EdlType } | { ok: false; problems: string[] } {
  const result = schema.safeParse(edl);
  if (result.success) return { ok: true, edl: result.data };
  return { ok: false, problems: result.error.issues.map((issue) => `${fieldName(issue.path)}: ${issue.message}`) };
}
