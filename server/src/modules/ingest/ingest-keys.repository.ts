import type { Kysely } from "kysely";
import type { Db } from "../../db/database.js";
import type { Database } from "../../db/schema.js";

/** What an ingest key made. */
export interface IngestKeyRecord {
  libraryId: string;
  storyId: string;
  versionNo: number;
  blobKey: string;
}

/** SQL of the ingest keys (migration 0023): one row per keyed ingest, gone with its story. */
export class IngestKeysRepository {
  constructor(private readonly db: Db) {}

  async find(key: string): Promise<IngestKeyRecord | undefined> {
    const row = await this.db.kysely
      .selectFrom("ingest_keys")
      .select(["library_id", "story_id", "version_no", "blob_key"])
      .where("key", "=", key)
      .executeTakeFirst();
    return (
      row && { libraryId: row.library_id, storyId: row.story_id, versionNo: row.version_no, blobKey: row.blob_key }
    );
  }

  /** In the ingest's transaction: a second row with the same key fails it (the primary key), so one story wins. */
  async insert(
    key: string,
    story: { id: string; libraryId: string; versionNo: number },
    blobKey: string,
    trx: Kysely<Database>,
  ): Promise<void> {
    await trx
      .insertInto("ingest_keys")
      .values({
        key,
        library_id: story.libraryId,
        story_id: story.id,
        version_no: story.versionNo,
        blob_key: blobKey,
        created_at: new Date().toISOString(),
      })
      .execute();
  }
}
