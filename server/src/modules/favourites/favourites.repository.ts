import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";

export interface FavoriteRecord {
  libraryId: string;
  storyId: string;
  type: string;
  createdAt: string;
}

/** SQL of the users' favourite stories. */
export class FavouritesRepository {
  constructor(private readonly kysely: Kysely<Database>) {}

  /** False when the story was a favourite already. */
  async add(userId: string, favorite: FavoriteRecord): Promise<boolean> {
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

  async remove(userId: string, storyId: string): Promise<boolean> {
    const result = await this.kysely
      .deleteFrom("favorites")
      .where("user_id", "=", userId)
      .where("story_id", "=", storyId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async list(
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
}
