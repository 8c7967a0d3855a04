import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import { Invalid } from "../../http/errors.js";
import { sanitizeText, type TextNode, textHtml, textParts, textWords } from "./composite-text.js";

/** A composite's stored text: the sanitised document and what the server wrote from it. */
export interface StoredText {
  doc: TextNode;
  html: string;
}

/**
 * `story_texts` (migration 0046), the stories module's: one row per
 * composite that has a text. Writes run in the caller's transaction and move
 * the story's revision on; the search index is told through `changed`.
 */
export class StoryTexts {
  constructor(private readonly kysely: Kysely<Database>) {}

  with(executor: Kysely<Database>): StoryTexts {
    return new StoryTexts(executor);
  }

  async find(storyId: string): Promise<StoredText | undefined> {
    const row = await this.kysely
      .selectFrom("story_texts")
      .select(["doc", "html"])
      .where("story_id", "=", storyId)
      .executeTakeFirst();
    return row ? { doc: JSON.parse(row.doc) as TextNode, html: row.html } : undefined;
  }

  /** The plain words of these stories' texts (the search index's). */
  async wordsOf(storyIds: readonly string[]): Promise<Map<string, string>> {
    if (storyIds.length === 0) return new Map();
    const rows = await this.kysely
      .selectFrom("story_texts")
      .select(["story_id", "words"])
      .where("story_id", "in", storyIds)
      .execute();
    return new Map(rows.map((row) => [row.story_id, row.words]));
  }

  /** Stores the (already sanitised) document, or removes the text (null). */
  async write(storyId: string, doc: TextNode | null, now: string): Promise<void> {
    await this.kysely.deleteFrom("story_texts").where("story_id", "=", storyId).execute();
    if (!doc) return;
    await this.kysely
      .insertInto("story_texts")
      .values({
        story_id: storyId,
        doc: JSON.stringify(doc),
        html: textHtml(textParts(doc)),
        words: textWords(doc),
        updated_at: now,
      })
      .execute();
  }

  /** Moves the story's revision on (a text edit is an edit of the story). */
  async bumpRevision(storyId: string): Promise<void> {
    await this.kysely
      .updateTable("stories")
      .set((eb) => ({ revision: eb("revision", "+", 1) }))
      .where("id", "=", storyId)
      .execute();
  }
}

/** The text a create or edit carries, checked: composites only, member nodes naming members. */
export function textOfInput(
  type: string,
  text: unknown,
  memberIds: readonly string[],
): { doc: TextNode | null } | undefined {
  if (text === undefined) return undefined;
  if (type !== "composite") throw new Invalid("text: only a composite story has a text", "invalid_text");
  return { doc: sanitizeText(text, memberIds) };
}
