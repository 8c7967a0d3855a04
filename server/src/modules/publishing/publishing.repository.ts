import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";

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

/** SQL of publish records. */
export class PublishingRepository {
  constructor(private readonly kysely: Kysely<Database>) {}

  with(executor: Kysely<Database>): PublishingRepository {
    return new PublishingRepository(executor);
  }

  async add(record: Omit<PublishRecord, "id">): Promise<PublishRecord> {
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
}
