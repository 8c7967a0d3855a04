import type { TextPart } from "../stories/composite-text.js";
import type { StoryFileView, StoryView } from "../stories/story-view.js";
import type { ShareRecord } from "./shares.repository.js";

/** What a share's file URL names: story `s` of library `l`, version `v`, rendition `r`; `d` 1 to download; `c` the composite it is a member of. */
export interface ShareFileClaims {
  s: string;
  l: string;
  v: number;
  r: string;
  d: 0 | 1;
  c?: string;
}

export interface VisitorFile {
  role: string;
  mime: string;
  width: number | null;
  height: number | null;
  url: string;
}

interface VisitorStoryFields {
  storyId: string;
  type: string;
  title: string;
  caption: string;
  credit: string;
  width: number | null;
  height: number | null;
  duration: number | null;
  thumbnail: string | null;
  preview: VisitorFile | null;
  poster: string | null;
  downloadUrl: string | null;
  /** The rendition a download gives (not shown to visitors: the URL carries it). */
  downloadRendition: string | null;
  metadata: Record<string, unknown> | null;
}

export interface VisitorStory extends VisitorStoryFields {
  members: VisitorStoryFields[];
}

/** Property names that carry where a photo was taken or which camera took it. */
const PRIVATE_PROPERTY = /gps|latitude|longitude|altitude|location|serial/i;

/** The file a visitor plays or looks at: the photo's preview, the video's or audio's proxy. */
function viewingFile(view: StoryView): StoryFileView | undefined {
  const role = view.type === "photo" ? "preview" : "proxy";
  return view.files.find((file) => file.role === role);
}

/**
 * A share as the visitor's stories are made from it: with the story type its
 * download preset renders, if any, and the story properties hidden from any
 * role (field-level access), which a visitor never sees.
 */
export type VisitedShare = ShareRecord & { presetStoryType: string | null; hiddenProperties: ReadonlySet<string> };

/** The rendition named in a share's download URL for a download preset's rendition. */
export const PRESET_RENDITION = "preset";

/** The rendition a share lets visitors download of this story, if any. */
export function downloadRendition(
  share: Pick<VisitedShare, "downloadPolicy" | "presetStoryType">,
  view: StoryView,
): string | null {
  if (view.type === "composite") return null;
  const hasOriginal = view.files.some((file) => file.role === "original");
  switch (share.downloadPolicy) {
    case "original":
      return hasOriginal ? "original" : null;
    case "preset":
      // A preset renders one story type, from the original; stories of other types have nothing to download.
      return hasOriginal && share.presetStoryType === view.type ? PRESET_RENDITION : null;
    case "preview":
      return viewingFile(view)?.role ?? null;
    case "none":
      return null;
  }
}

function metadataOf(share: VisitedShare, view: StoryView): Record<string, unknown> | null {
  if (share.metadata !== "all") return null;
  const properties = Object.fromEntries(
    Object.entries(view.properties).filter(
      ([key]) => !share.hiddenProperties.has(key) && (share.keepLocation || !PRIVATE_PROPERTY.test(key)),
    ),
  );
  return {
    keywords: view.keywords,
    tags: view.tags,
    theme: view.theme,
    category: view.category,
    capturedAt: view.capturedAt,
    mime: view.mime,
    size: view.size,
    originalName: view.originalName,
    properties,
    ...(share.keepLocation && view.gps ? { gps: view.gps } : {}),
  };
}

function fields(
  share: VisitedShare,
  view: StoryView,
  sign: (claims: ShareFileClaims) => string,
  container?: string,
): VisitorStoryFields {
  const file = (role: string, d: 0 | 1) =>
    sign({ s: view.id, l: view.libraryId, v: view.versionNo, r: role, d, ...(container ? { c: container } : {}) });
  const has = (role: string) => view.files.some((candidate) => candidate.role === role);
  const viewing = viewingFile(view);
  const rendition = downloadRendition(share, view);
  return {
    storyId: view.id,
    type: view.type,
    title: view.title,
    caption: view.caption,
    credit: [view.authors.join(", "), view.source ?? ""].filter(Boolean).join(" / "),
    width: view.width,
    height: view.height,
    duration: view.duration,
    thumbnail: has("thumbnail") ? file("thumbnail", 0) : null,
    preview: viewing
      ? {
          role: viewing.role,
          mime: viewing.mime,
          width: viewing.width,
          height: viewing.height,
          url: file(viewing.role, 0),
        }
      : null,
    poster: has("poster") ? file("poster", 0) : null,
    downloadUrl: rendition ? file(rendition, 1) : null,
    downloadRendition: rendition,
    metadata: metadataOf(share, view),
  };
}

/** A shared story as a visitor sees it: only what the share's options allow, every URL signed for the share. */
export function toVisitorStory(
  share: VisitedShare,
  view: StoryView,
  members: Map<string, StoryView>,
  sign: (claims: ShareFileClaims) => string,
): VisitorStory {
  return {
    ...fields(share, view, sign),
    members: view.members.flatMap((id) => {
      const member = members.get(id);
      return member ? [fields(share, member, sign, view.id)] : [];
    }),
  };
}

/** A composite's text parts without the member placeholders of members the visitor does not see. */
export function visibleParts(parts: TextPart[] | undefined, members: readonly { storyId: string }[]): TextPart[] {
  const shown = new Set(members.map((member) => member.storyId));
  return (parts ?? []).filter((part) => part.kind === "html" || shown.has(part.storyId));
}
