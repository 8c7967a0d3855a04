import type { Insertable, Kysely, Selectable, Updateable } from "kysely";
import type { Db } from "../../db/database.js";
import type { Database, VideoEditProjectsTable, VideoEditRendersTable } from "../../db/schema.js";

export type ProjectRow = Selectable<VideoEditProjectsTable>;
export type RenderRow = Selectable<VideoEditRendersTable>;

/** SQL of the video editor's projects and renders (the module owns both tables). */
export class VideoEditRepository {
  constructor(private readonly db: Db) {}

  #json(value: unknown): string {
    return this.db.adapter.writeJson(value);
  }

  /** Rows with their EDL decoded. */
  #decoded<Row extends { edl: unknown }>(row: Row | undefined): Row | undefined {
    return row ? { ...row, edl: this.db.adapter.readJson(row.edl) } : undefined;
  }

  async insertProject(row: Omit<ProjectRow, "edl"> & { edl: unknown }): Promise<void> {
    await this.db.kysely
      .insertInto("video_edit_projects")
      .values({ ...row, edl: this.#json(row.edl) })
      .execute();
  }

  async findProject(id: string): Promise<ProjectRow | undefined> {
    return this.#decoded(
      await this.db.kysely.selectFrom("video_edit_projects").selectAll().where("id", "=", id).executeTakeFirst(),
    );
  }

  /** Saves when the stored revision is `revision`; false when another save came first. */
  async saveProject(
    id: string,
    revision: number,
    changes: { edl: unknown; title: string; updatedAt: string },
  ): Promise<boolean> {
    const result = await this.db.kysely
      .updateTable("video_edit_projects")
      .set({
        edl: this.#json(changes.edl),
        title: changes.title,
        updated_at: changes.updatedAt,
        revision: revision + 1,
      })
      .where("id", "=", id)
      .where("revision", "=", revision)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async linkProject(id: string, story: { libraryId: string; storyId: string }, transaction?: Kysely<Database>) {
    await (transaction ?? this.db.kysely)
      .updateTable("video_edit_projects")
      .set({ story_library_id: story.libraryId, story_id: story.storyId })
      .where("id", "=", id)
      .execute();
  }

  async deleteProject(id: string): Promise<void> {
    await this.db.kysely.deleteFrom("video_edit_projects").where("id", "=", id).execute();
  }

  /** A user's projects, the last changed first, without their EDLs. */
  async projectsOf(ownerId: string, page: number, size: number) {
    const rows = await this.db.kysely
      .selectFrom("video_edit_projects")
      .select(["id", "kind", "title", "revision", "story_library_id", "story_id", "created_at", "updated_at"])
      .where("owner_id", "=", ownerId)
      .orderBy("updated_at", "desc")
      .orderBy("id", "desc")
      .limit(size)
      .offset(page * size)
      .execute();
    const { count } = await this.db.kysely
      .selectFrom("video_edit_projects")
      .select((eb) => eb.fn.countAll<number | string>().as("count"))
      .where("owner_id", "=", ownerId)
      .executeTakeFirstOrThrow();
    return { rows, total: Number(count) };
  }

  async insertRender(row: Insertable<VideoEditRendersTable>, transaction?: Kysely<Database>): Promise<void> {
    await (transaction ?? this.db.kysely)
      .insertInto("video_edit_renders")
      .values({ ...row, edl: this.#json(row.edl) })
      .execute();
  }

  async findRender(id: string): Promise<RenderRow | undefined> {
    return this.#decoded(
      await this.db.kysely.selectFrom("video_edit_renders").selectAll().where("id", "=", id).executeTakeFirst(),
    );
  }

  /** The render whose MP4 is the blob `outputKey` (a story's original made by the video editor). */
  async findRenderByOutput(outputKey: string): Promise<RenderRow | undefined> {
    return this.#decoded(
      await this.db.kysely
        .selectFrom("video_edit_renders")
        .selectAll()
        .where("output_key", "=", outputKey)
        .executeTakeFirst(),
    );
  }

  async updateRender(
    id: string,
    changes: Updateable<VideoEditRendersTable>,
    transaction?: Kysely<Database>,
  ): Promise<void> {
    await (transaction ?? this.db.kysely).updateTable("video_edit_renders").set(changes).where("id", "=", id).execute();
  }

  /** Gives a finished render to a story; false when another call took it first. */
  async takeRender(id: string, story: { libraryId: string; storyId: string }, transaction: Kysely<Database>) {
    const result = await transaction
      .updateTable("video_edit_renders")
      .set({ story_library_id: story.libraryId, story_id: story.storyId })
      .where("id", "=", id)
      .where("story_id", "is", null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Renders created before `before` that no story took (their files are to go). */
  async expiredRenders(before: string, limit: number): Promise<RenderRow[]> {
    const rows = await this.db.kysely
      .selectFrom("video_edit_renders")
      .selectAll()
      .where("created_at", "<", before)
      .where("story_id", "is", null)
      .orderBy("created_at")
      .limit(limit)
      .execute();
    return rows.map((row) => this.#decoded(row)!);
  }

  async deleteRender(id: string, transaction?: Kysely<Database>): Promise<void> {
    await (transaction ?? this.db.kysely).deleteFrom("video_edit_renders").where("id", "=", id).execute();
  }
}
