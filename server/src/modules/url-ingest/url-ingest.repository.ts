import type { Kysely, Selectable } from "kysely";
import type { Db } from "../../db/database.js";
import type { Database, UrlFetchesTable } from "../../db/schema.js";

export type UrlFetchRow = Selectable<UrlFetchesTable>;

export interface NewUrlFetch {
  id: string;
  userId: string;
  url: string;
  libraryId: string;
  folderId: string | null;
  type: string | null;
  suffix: string | null;
}

/** SQL of the download centre's fetches. */
export class UrlIngestRepository {
  constructor(private readonly db: Db) {}

  async insert(input: NewUrlFetch, transaction?: Kysely<Database>): Promise<void> {
    const now = new Date().toISOString();
    await (transaction ?? this.db.kysely)
      .insertInto("url_fetches")
      .values({
        id: input.id,
        user_id: input.userId,
        url: input.url,
        library_id: input.libraryId,
        folder_id: input.folderId,
        type: input.type,
        suffix: input.suffix,
        state: "queued",
        job_id: null,
        error_code: null,
        error_params: null,
        segments_done: null,
        segments_total: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
  }

  async find(id: string): Promise<UrlFetchRow | undefined> {
    return this.db.kysely.selectFrom("url_fetches").selectAll().where("id", "=", id).executeTakeFirst();
  }

  async latestOf(userId: string, url: string): Promise<UrlFetchRow | undefined> {
    return this.db.kysely
      .selectFrom("url_fetches")
      .selectAll()
      .where("user_id", "=", userId)
      .where("url", "=", url)
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .limit(1)
      .executeTakeFirst();
  }

  async pageOf(userId: string, page: number, size: number): Promise<{ rows: UrlFetchRow[]; total: number }> {
    const rows = await this.db.kysely
      .selectFrom("url_fetches")
      .selectAll()
      .where("user_id", "=", userId)
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .limit(size)
      .offset(page * size)
      .execute();
    const { count } = await this.db.kysely
      .selectFrom("url_fetches")
      .select((eb) => eb.fn.countAll<number | string>().as("count"))
      .where("user_id", "=", userId)
      .executeTakeFirstOrThrow();
    return { rows, total: Number(count) };
  }

  /** Cancelled unless it ended meanwhile (a story made in the same instant stays done). */
  async markCancelled(id: string): Promise<void> {
    await this.db.kysely
      .updateTable("url_fetches")
      .set({
        state: "cancelled",
        error: null,
        error_code: null,
        error_params: null,
        speed: 0,
        updated_at: new Date().toISOString(),
      })
      .where("id", "=", id)
      .where("state", "in", ["queued", "running"])
      .execute();
  }

  async update(
    id: string,
    changes: Partial<{
      state: UrlFetchRow["state"];
      bytes_received: number;
      total_bytes: number | null;
      speed: number;
      error: string | null;
      job_id: string | null;
      error_code: string | null;
      error_params: string | null;
      segments_done: number | null;
      segments_total: number | null;
      story_id: string | null;
    }>,
    transaction?: Kysely<Database>,
  ): Promise<void> {
    await (transaction ?? this.db.kysely)
      .updateTable("url_fetches")
      .set({ ...changes, updated_at: new Date().toISOString() })
      .where("id", "=", id)
      .execute();
  }
}
