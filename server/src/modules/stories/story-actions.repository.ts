import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { DialectAdapter } from "../../db/dialect/index.js";
import type { Database } from "../../db/schema.js";

/** What is recorded of every change (and download) of a story. */
export type StoryActionName =
  | "create"
  | "edit"
  | "commit"
  | "delete"
  | "new-version"
  | "merged-into"
  | "rendition"
  | "metadata"
  | "processing"
  | "favorite"
  | "unfavorite"
  | "relate"
  | "unrelate"
  | "publish"
  | "share"
  | "download";

export interface NewStoryAction {
  libraryId: string;
  storyId: string;
  /** null for the system (media jobs). */
  userId: string | null;
  username: string | null;
  action: StoryActionName;
  ip: string | null;
  details?: Record<string, unknown>;
}

export interface StoryActionRecord {
  id: string;
  libraryId: string;
  storyId: string;
  userId: string | null;
  username: string | null;
  action: string;
  at: string;
  ip: string | null;
  details: Record<string, unknown>;
}

export class StoryActionsRepository {
  constructor(
    private readonly kysely: Kysely<Database>,
    private readonly adapter: DialectAdapter,
  ) {}

  with(executor: Kysely<Database>): StoryActionsRepository {
    return new StoryActionsRepository(executor, this.adapter);
  }

  async record(action: NewStoryAction, at: string): Promise<void> {
    await this.recordMany([action], at);
  }

  /** Several actions in one statement: all are recorded or none. */
  async recordMany(actions: NewStoryAction[], at: string): Promise<void> {
    if (actions.length === 0) return;
    await this.kysely
      .insertInto("story_actions")
      .values(
        actions.map((action) => ({
          id: randomUUID(),
          library_id: action.libraryId,
          story_id: action.storyId,
          user_id: action.userId,
          username: action.username,
          action: action.action,
          at,
          ip: action.ip,
          details: this.adapter.writeJson(action.details ?? {}),
        })),
      )
      .execute();
  }

  async list(
    libraryId: string,
    storyId: string,
    page: { page: number; size: number },
  ): Promise<{ actions: StoryActionRecord[]; total: number }> {
    const base = this.kysely
      .selectFrom("story_actions")
      .where("story_id", "=", storyId)
      .where("library_id", "=", libraryId);
    const { count } = await base.select((eb) => eb.fn.countAll<number>().as("count")).executeTakeFirstOrThrow();
    const rows = await base
      .selectAll()
      .orderBy("at", "desc")
      .orderBy("id")
      .limit(page.size)
      .offset(page.page * page.size)
      .execute();
    return {
      total: Number(count),
      actions: rows.map((row) => ({
        id: row.id,
        libraryId: row.library_id,
        storyId: row.story_id,
        userId: row.user_id,
        username: row.username,
        action: row.action,
        at: row.at,
        ip: row.ip,
        details: this.adapter.readJson<Record<string, unknown>>(row.details),
      })),
    };
  }
}
