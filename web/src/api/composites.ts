/**
 * Composites as manuscripts (issue 15): a composite's text (TipTap JSON,
 * answered with the server's sanitised HTML in parts), and the calls that
 * create, edit and commit one, through the generated client.
 */
import { useQuery } from "@tanstack/react-query";
import { api, call } from "./client";
import type { components } from "./schema";
import { type Story, type StoryEdit, type StoryRef, storyKeys } from "./stories";

type GeneratedCompositeText = components["schemas"]["CompositeText"];

/** A TipTap (ProseMirror) JSON node: the document, a block, or text with marks. */
export interface TextNode {
  type: string;
  attrs?: Record<string, unknown>;
  content?: TextNode[];
  marks?: { type: string; attrs?: Record<string, unknown> }[];
  text?: string;
}

/** A composite's text as stored: a `doc` node. */
export type TextDoc = TextNode & { type: "doc" };

/** One part of the manuscript in reading order: sanitised HTML, or a member placed in the text. */
export type ManuscriptPart = GeneratedCompositeText["parts"][number];

/** A member of a composite, as the text route lists them (in the composite's order). */
export type ManuscriptMember = GeneratedCompositeText["members"][number];

/**
 * `GET /stories/{libraryId}/{storyId}/text`. The schema declares the document as any `doc` node (the server
 * keeps unknown TipTap attributes); the editor reads it as the TipTap JSON it wrote.
 */
export type CompositeText = Omit<GeneratedCompositeText, "doc"> & { doc: TextDoc | null };

export const compositeKeys = {
  text: (ref: StoryRef) => [...storyKeys.detail(ref), "text"] as const,
};

/** A member as the editor shows it, from a story of a list or the grid's selection. */
export function memberOf(story: Story): ManuscriptMember {
  return {
    storyId: story.storyId,
    libraryId: story.libraryId,
    type: story.type,
    title: story.title || story.originalName || "",
    thumbnailUrl: story.thumbnailMediaUrl ?? null,
  };
}

export function fetchCompositeText(ref: StoryRef): Promise<CompositeText> {
  const path = { libraryId: ref.libraryId, storyId: ref.storyId };
  return call(
    api.GET("/dams/api/v1/stories/{libraryId}/{storyId}/text", { params: { path } }),
  ) as Promise<CompositeText>;
}

/** The composite's text and members (only asked of a composite). */
export const useCompositeText = (ref: StoryRef | null, enabled = true) =>
  useQuery({
    queryKey: compositeKeys.text(ref ?? { libraryId: "", storyId: "" }),
    queryFn: () => fetchCompositeText(ref as StoryRef),
    enabled: enabled && ref !== null,
  });

/** What the composite dialog saves: metadata, members in order, the text, and the member chosen as cover. */
export interface CompositeSave {
  title: string;
  caption: string;
  authors: string[];
  keywords: string[];
  tags: string[];
  members: StoryRef[];
  text: TextDoc | null;
  /** A member whose still becomes the cover; undefined keeps the cover as it is. */
  cover?: ManuscriptMember;
}

/** The file of a member shown as the composite's cover: a photo's preview, a video's poster. */
export function coverRole(member: Pick<ManuscriptMember, "type">): string | null {
  if (member.type === "photo") return "preview";
  if (member.type === "video") return "poster";
  return null;
}

function coverFrom(cover: ManuscriptMember | undefined): StoryEdit["coverFrom"] | undefined {
  const role = cover ? coverRole(cover) : null;
  return cover && role ? { storyId: cover.storyId, role } : undefined;
}

/** Creates a composite (a draft) in a library; its cover, when one was chosen, is set by an edit right after. */
export async function createComposite(libraryId: string, save: CompositeSave): Promise<Story> {
  const { cover, ...fields } = save;
  const body = { libraryId, ...fields } as const;
  const created = (await call(api.POST("/dams/api/v1/workflow-story-create/composite", { body }))) as Story;
  const from = coverFrom(cover);
  if (!from) return created;
  const edited = await saveComposite(created, { coverFrom: from }, created.revision);
  return edited.kind === "saved" ? edited.story : created;
}

/** What an edit came to: saved, or refused because someone changed the composite since (409 stale_revision). */
export type CompositeEdit = { kind: "saved"; story: Story } | { kind: "stale"; current: Story };

type CompositeBody = StoryEdit & { text?: TextDoc | null };

/** `PUT /workflow-story-edit/composite/:storyId` based on `revision` (If-Match). */
export async function saveComposite(story: StoryRef, body: CompositeBody, revision: number): Promise<CompositeEdit> {
  const pending = api.PUT("/dams/api/v1/workflow-story-edit/composite/{storyId}", {
    params: { path: { storyId: story.storyId }, query: { libraryId: story.libraryId } },
    headers: { "If-Match": `"${revision}"` },
    body,
  });
  const { response, error } = await pending;
  if (response.status === 409) {
    const stale = error as { error?: string; data?: Story } | undefined;
    if (stale?.error === "stale_revision" && stale.data) return { kind: "stale", current: stale.data };
  }
  return { kind: "saved", story: (await call(pending)) as Story };
}

/** The edit body of a dialog's save. */
export function editBodyOf(save: CompositeSave): CompositeBody {
  const { cover, ...fields } = save;
  const from = coverFrom(cover);
  return from ? { ...fields, coverFrom: from } : fields;
}

/** `POST /workflow-story-create/composite/commit`: the draft composite becomes committed. */
export function commitComposite(story: StoryRef): Promise<unknown> {
  const body = { libraryId: story.libraryId, storyIds: [story.storyId] };
  return call(api.POST("/dams/api/v1/workflow-story-create/composite/commit", { body }));
}
