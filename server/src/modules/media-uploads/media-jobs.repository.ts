import { sql } from "kysely";
import type { Db } from "../../db/database.js";
import type { JobState } from "../jobs/job-types.js";

export interface StoryJob {
  id: string;
  state: JobState;
  progress: number;
  lastError: string | null;
  createdAt: string;
}

/**
 * Read-only questions about the media jobs of one story. The processing job's
 * payload is `{ ids: [...] }` (a commit may process several stories in one
 * job), so a story's jobs are found by its id inside the JSON text: the cast
 * works the same on SQLite (text) and PostgreSQL (jsonb), and a story id is a
 * UUID, so it holds no LIKE wildcard.
 */
export class MediaJobsRepository {
  constructor(private readonly db: Db) {}

  #ofStory(jobName: string, storyId: string) {
    return this.db.kysely
      .selectFrom("jobs")
      .select(["id", "state", "progress", "last_error", "created_at"])
      .where("name", "=", jobName)
      .where(sql<string>`cast(payload as text)`, "like", `%"${storyId}"%`);
  }

  /** A job of the story that is queued or running (few rows: the state index bounds the scan). */
  async active(jobName: string, storyId: string): Promise<StoryJob | undefined> {
    const row = await this.#ofStory(jobName, storyId)
      .where("state", "in", ["queued", "running"])
      .orderBy("created_at", "desc")
      .executeTakeFirst();
    return row && toStoryJob(row);
  }

  /** The newest job of the story created at or after `since` (the current version's creation). */
  async latestSince(jobName: string, storyId: string, since: string): Promise<StoryJob | undefined> {
    const row = await this.#ofStory(jobName, storyId)
      .where("created_at", ">=", since)
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .executeTakeFirst();
    return row && toStoryJob(row);
  }
}

function toStoryJob(row: {
  id: string;
  state: JobState;
  progress: number;
  last_error: string | null;
  created_at: string;
}): StoryJob {
  return {
    id: row.id,
    state: row.state,
    progress: row.progress,
    lastError: row.last_error,
    createdAt: row.created_at,
  };
}
