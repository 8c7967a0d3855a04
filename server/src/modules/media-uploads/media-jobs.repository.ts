import type { Db } from "../../db/database.js";
import type { JobState } from "../jobs/job-types.js";

export interface StoryJob {
  id: string;
  state: JobState;
  progress: number;
  lastError: string | null;
  createdAt: string;
}

/** A job of a story as its readers see it (GET /stories/{library}/{id}/processing). */
export interface StoryJobDetail extends StoryJob {
  name: string;
  attempts: number;
  maxAttempts: number;
  startedAt: string | null;
  finishedAt: string | null;
  updatedAt: string;
}

/**
 * Read-only questions about the jobs of one story, found by the jobs'
 * `story_id` column (indexed with created_at; set on enqueue for jobs of one
 * story).
 */
export class MediaJobsRepository {
  constructor(private readonly db: Db) {}

  #ofStory(jobName: string, storyId: string) {
    return this.db.kysely
      .selectFrom("jobs")
      .select(["id", "state", "progress", "last_error", "created_at"])
      .where("story_id", "=", storyId)
      .where("name", "=", jobName);
  }

  /** The story's newest jobs, newest first. */
  async ofStory(storyId: string, limit: number): Promise<StoryJobDetail[]> {
    const rows = await this.db.kysely
      .selectFrom("jobs")
      .select([
        "id",
        "name",
        "state",
        "progress",
        "last_error",
        "attempts",
        "max_attempts",
        "created_at",
        "started_at",
        "finished_at",
        "updated_at",
      ])
      .where("story_id", "=", storyId)
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .limit(limit)
      .execute();
    return rows.map((row) => ({
      ...toStoryJob(row),
      name: row.name,
      attempts: row.attempts,
      maxAttempts: row.max_attempts,
      startedAt: row.started_at,
      finishedAt: row.finished_at,
      updatedAt: row.updated_at,
    }));
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
