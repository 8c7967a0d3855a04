import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import type { LibraryUser } from "../access/library-access.js";
import type { LibrariesService } from "../libraries/libraries.service.js";
import { type TextNode, type TextPart, textHtml, textParts } from "./composite-text.js";
import type { StoryQueries } from "./story-queries.service.js";
import { StoryTexts } from "./story-texts.js";
import type { Story } from "./story-types.js";

/** A member of a composite as its text editor and pages show it. */
export interface CompositeMemberView {
  storyId: string;
  libraryId: string;
  type: Story["type"];
  title: string;
  /** A signed, short-lived URL an <img> may load (the grid's thumbnailMediaUrl, else the cover's), or null. */
  thumbnailUrl: string | null;
}

export interface CompositeTextView {
  doc: (TextNode & { type: "doc" }) | null;
  html: string;
  parts: TextPart[];
  members: CompositeMemberView[];
}

/**
 * Reads of a composite's text (issue 15): the sanitised document, the
 * server-written HTML, the HTML split around the member nodes, and the
 * members the caller may see, in the composite's order.
 */
export class CompositeTextQueries {
  readonly #texts: StoryTexts;

  constructor(
    kysely: Kysely<Database>,
    private readonly queries: StoryQueries,
    private readonly libraries: LibrariesService,
  ) {
    this.#texts = new StoryTexts(kysely);
  }

  /** The text of a story the route's config found readable in its library. */
  async forReader(user: LibraryUser, libraryId: string, storyId: string): Promise<CompositeTextView> {
    const story = await this.queries.require(libraryId, storyId);
    const readable = new Set(await this.libraries.readableIds(user));
    return this.view(story, (member) => readable.has(member.libraryId));
  }

  /**
   * The text of this story with the members `visible` lets through (a share's
   * visitor: the shared composite's members). A non-composite has none.
   */
  async view(story: Story, visible: (member: Story) => boolean): Promise<CompositeTextView> {
    if (story.type !== "composite") return { doc: null, html: "", parts: [], members: [] };
    const [stored, [composite]] = await Promise.all([this.#texts.find(story.id), this.queries.views([story])]);
    const memberIds = composite?.members ?? [];
    const found = (await this.queries.findMany(memberIds)).filter(visible);
    const views = await this.queries.views(found);
    const byId = new Map(views.map((view) => [view.id, view]));
    const members = memberIds.flatMap((id) => {
      const view = byId.get(id);
      if (!view) return [];
      return [
        {
          storyId: view.id,
          libraryId: view.libraryId,
          type: view.type,
          title: view.title,
          thumbnailUrl: view.thumbnailMediaUrl ?? view.coverMediaUrl ?? null,
        },
      ];
    });
    const shown = new Set(members.map((member) => member.storyId));
    // Members removed since the text was written (or not visible here) leave no placeholder.
    const parts = textParts(stored?.doc ?? null).filter((part) => part.kind === "html" || shown.has(part.storyId));
    return { doc: (stored?.doc as CompositeTextView["doc"]) ?? null, html: textHtml(parts), parts, members };
  }

  /** The stored texts of these composites as parts (a share's visitor page); composites without text are absent. */
  async partsOf(storyIds: readonly string[]): Promise<Map<string, TextPart[]>> {
    const parts = new Map<string, TextPart[]>();
    for (const id of storyIds) {
      const stored = await this.#texts.find(id);
      if (stored) parts.set(id, textParts(stored.doc));
    }
    return parts;
  }
}
