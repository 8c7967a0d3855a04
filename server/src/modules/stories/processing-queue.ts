import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import type { JobEnqueuer } from "../jobs/job-types.js";

/** Enqueues the media processing job of stories, "stories.process" (the processing module's), in the transaction that changes them. */
export class ProcessingQueue {
  constructor(private readonly jobs: JobEnqueuer) {}

  /** One job per story, so each story's progress and failure are its own. */
  async enqueue(trx: Kysely<Database>, ids: string[]): Promise<void> {
    for (const id of ids) await this.jobs.enqueue("stories.process", { ids: [id] }, { transaction: trx, storyId: id });
  }

  /** One job for the story; `dedupeKey` keeps a second from being queued while one with the key is queued or running. */
  async enqueueOne(trx: Kysely<Database>, storyId: string, dedupeKey?: string): Promise<string> {
    return this.jobs.enqueue("stories.process", { ids: [storyId] }, { transaction: trx, dedupeKey, storyId });
  }
}
