import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";

export interface RelationRecord {
  id: string;
  storyId: string;
  relatedStoryId: string;
  type: string;
  createdAt: string;
}

/** SQL of relations between stories: stored once, read in both directions. */
export class RelationsRepository {
  constructor(private readonly kysely: Kysely<Database>) {}

  async ofStory(storyId: string): Promise<RelationRecord[]> {
    return this.kysely
      .selectFrom("story_relations")
      .select(["id", "story_id as storyId", "related_story_id as relatedStoryId", "type", "created_at as createdAt"])
      .where((eb) => eb.or([eb("story_id", "=", storyId), eb("related_story_id", "=", storyId)]))
      .orderBy("created_at")
      .orderBy("id")
      .execute();
  }

  async find(storyId: string, relatedStoryId: string, type: string): Promise<string | undefined> {
    const row = await this.kysely
      .selectFrom("story_relations")
      .select("id")
      .where("type", "=", type)
      .where((eb) =>
        eb.or([
          eb.and([eb("story_id", "=", storyId), eb("related_story_id", "=", relatedStoryId)]),
          eb.and([eb("story_id", "=", relatedStoryId), eb("related_story_id", "=", storyId)]),
        ]),
      )
      .executeTakeFirst();
    return row?.id;
  }

  async add(relation: Omit<RelationRecord, "id">, userId: string): Promise<string> {
    const id = randomUUID();
    await this.kysely
      .insertInto("story_relations")
      .values({
        id,
        story_id: relation.storyId,
        related_story_id: relation.relatedStoryId,
        type: relation.type,
        created_by: userId,
        created_at: relation.createdAt,
      })
      .execute();
    return id;
  }

  /** The relation, removed, when it is one of the story's. */
  async remove(id: string, storyId: string): Promise<RelationRecord | undefined> {
    const relation = (await this.ofStory(storyId)).find((candidate) => candidate.id === id);
    if (relation) await this.kysely.deleteFrom("story_relations").where("id", "=", id).execute();
    return relation;
  }
}
