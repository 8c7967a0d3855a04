import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";

export interface FavoriteRecord {
  libraryId: string;
  storyId: string;
  type: string;
  createdAt: string;
}

export interface RelationRecord {
  id: string;
  storyId: string;
  relatedStoryId: string;
  type: string;
  createdAt: string;
}

export interface PublishRecord {
  id: string;
  libraryId: string;
  storyId: string;
  versionNo: number;
  channel: string | null;
  note: string | null;
  status: string;
  publishedBy: string | null;
  publishedAt: string;
}

export interface UserSettings {
  defaultLibraryId: string | null;
  defaultFolderId: string | null;
}

/** Favourites, relations, publish records, shares and user settings: the rows that hang off stories. */
export class StoryLinksRepository {
  constructor(private readonly kysely: Kysely<Database>) {}

  with(executor: Kysely<Database>): StoryLinksRepository {
    return new StoryLinksRepository(executor);
  }

  // Favourites

  async addFavorite(userId: string, favorite: FavoriteRecord): Promise<boolean> {
    const existing = await this.kysely
      .selectFrom("favorites")
      .select("story_id")
      .where("user_id", "=", userId)
      .where("story_id", "=", favorite.storyId)
      .executeTakeFirst();
    if (existing) return false;
    await this.kysely
      .insertInto("favorites")
      .values({
        user_id: userId,
        library_id: favorite.libraryId,
        story_id: favorite.storyId,
        type: favorite.type,
        created_at: favorite.createdAt,
      })
      .execute();
    return true;
  }

  async removeFavorite(userId: string, storyId: string): Promise<boolean> {
    const result = await this.kysely
      .deleteFrom("favorites")
      .where("user_id", "=", userId)
      .where("story_id", "=", storyId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async favorites(
    userId: string,
    filter: { libraryIds: string[]; storyId?: string; type?: string },
    page: { page: number; size: number },
  ): Promise<{ favorites: FavoriteRecord[]; total: number }> {
    if (filter.libraryIds.length === 0) return { favorites: [], total: 0 };
    let base = this.kysely
      .selectFrom("favorites")
      .where("user_id", "=", userId)
      .where("library_id", "in", filter.libraryIds);
    if (filter.storyId) base = base.where("story_id", "=", filter.storyId);
    if (filter.type) base = base.where("type", "=", filter.type);
    const { count } = await base.select((eb) => eb.fn.countAll<number>().as("count")).executeTakeFirstOrThrow();
    const rows = await base
      .select(["library_id as libraryId", "story_id as storyId", "type", "created_at as createdAt"])
      .orderBy("created_at", "desc")
      .orderBy("story_id")
      .limit(page.size)
      .offset(page.page * page.size)
      .execute();
    return { favorites: rows, total: Number(count) };
  }

  // Relations (stored once, read in both directions)

  async relations(storyId: string): Promise<RelationRecord[]> {
    return this.kysely
      .selectFrom("story_relations")
      .select(["id", "story_id as storyId", "related_story_id as relatedStoryId", "type", "created_at as createdAt"])
      .where((eb) => eb.or([eb("story_id", "=", storyId), eb("related_story_id", "=", storyId)]))
      .orderBy("created_at")
      .orderBy("id")
      .execute();
  }

  async findRelation(storyId: string, relatedStoryId: string, type: string): Promise<string | undefined> {
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

  async addRelation(relation: Omit<RelationRecord, "id">, userId: string): Promise<string> {
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

  async removeRelation(id: string, storyId: string): Promise<RelationRecord | undefined> {
    const relation = (await this.relations(storyId)).find((candidate) => candidate.id === id);
    if (relation) await this.kysely.deleteFrom("story_relations").where("id", "=", id).execute();
    return relation;
  }

  // Publish records and shares

  async addPublishRecord(record: Omit<PublishRecord, "id">): Promise<PublishRecord> {
    const id = randomUUID();
    await this.kysely
      .insertInto("publish_records")
      .values({
        id,
        library_id: record.libraryId,
        story_id: record.storyId,
        version_no: record.versionNo,
        channel: record.channel,
        note: record.note,
        status: record.status,
        published_by: record.publishedBy,
        published_at: record.publishedAt,
      })
      .execute();
    return { id, ...record };
  }

  async addShare(share: {
    tokenHash: string;
    libraryId: string;
    storyId: string;
    createdBy: string;
    createdAt: string;
    expiresAt: string;
  }): Promise<string> {
    const id = randomUUID();
    await this.kysely
      .insertInto("shares")
      .values({
        id,
        token_hash: share.tokenHash,
        library_id: share.libraryId,
        story_id: share.storyId,
        created_by: share.createdBy,
        created_at: share.createdAt,
        expires_at: share.expiresAt,
        revoked_at: null,
      })
      .execute();
    return id;
  }

  /** The share a token opens, while it is neither expired nor revoked. */
  async activeShare(tokenHash: string, now: string): Promise<{ libraryId: string; storyId: string } | undefined> {
    return this.kysely
      .selectFrom("shares")
      .select(["library_id as libraryId", "story_id as storyId"])
      .where("token_hash", "=", tokenHash)
      .where("revoked_at", "is", null)
      .where("expires_at", ">", now)
      .executeTakeFirst();
  }

  // User settings

  async settings(userId: string): Promise<UserSettings | undefined> {
    return this.kysely
      .selectFrom("user_settings")
      .select(["default_library_id as defaultLibraryId", "default_folder_id as defaultFolderId"])
      .where("user_id", "=", userId)
      .executeTakeFirst();
  }

  async saveSettings(userId: string, settings: UserSettings, now: string): Promise<void> {
    const values = {
      default_library_id: settings.defaultLibraryId,
      default_folder_id: settings.defaultFolderId,
      updated_at: now,
    };
    await this.kysely
      .insertInto("user_settings")
      .values({ user_id: userId, ...values })
      .onConflict((conflict) => conflict.column("user_id").doUpdateSet(values))
      .execute();
  }
}
