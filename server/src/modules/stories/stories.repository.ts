import { randomUUID } from "node:crypto";
import { type Insertable, type Kysely, sql, type Updateable } from "kysely";
import type { DialectAdapter } from "../../db/dialect/index.js";
import { PreparedListRead, PreparedRead } from "../../db/prepared-read.js";
import type { Database, StoriesTable, StoryType } from "../../db/schema.js";
import { storyRowsByIds } from "../search/search.repository.js";
import type { StoryChangeListener } from "../search/search-index.js";
import { storyFromRow, toStoryFile } from "./story-rows.js";
import type { Story, StoryFile, StoryRow, StoryVersion } from "./story-types.js";

export type StoryInsert = Insertable<StoriesTable>;
export type StoryUpdate = Updateable<StoriesTable>;

/** Story columns holding catalogue values: one value each, or a JSON list of names. */
export const SINGLE_VALUE_COLUMNS = ["theme", "source", "category"] as const;
export const LIST_COLUMNS = ["tags", "keywords", "authors"] as const;
export type CatalogueColumn = (typeof SINGLE_VALUE_COLUMNS)[number] | (typeof LIST_COLUMNS)[number];

/** Columns of a story's metadata: a write to any of them moves the story's `revision` on (its ETag). */
const METADATA_COLUMNS: ReadonlySet<string> = new Set([
  "title",
  "caption",
  "authors",
  "source",
  "keywords",
  "tags",
  "theme",
  "category",
  "half_product",
  "properties",
  "captured_at",
  "gps",
]);

/** Whether the changes touch the metadata (and so move the revision on). */
const touchesMetadata = (changes: StoryUpdate) => Object.keys(changes).some((column) => METADATA_COLUMNS.has(column));

/** One story by id (GET one story, the viewer, most single-story routes): compiled once. */
const storyById = new PreparedRead(1, (kysely, id: string) =>
  kysely.selectFrom("stories").selectAll().where("id", "=", id),
);

/** The files of stories and the members of composites (GET one story's, a list page's): compiled once per count. */
const filesOfStories = new PreparedListRead((kysely, storyIds) =>
  kysely.selectFrom("story_files").selectAll().where("story_id", "in", storyIds).orderBy("version_no").orderBy("role"),
);
const membersOfComposites = new PreparedListRead((kysely, compositeIds) =>
  kysely
    .selectFrom("composite_members")
    .select(["composite_id", "member_id"])
    .where("composite_id", "in", compositeIds)
    .orderBy("composite_id")
    .orderBy("sort"),
);

/** SQL of stories, their versions, files and composite members. */
export class StoriesRepository {
  constructor(
    private readonly kysely: Kysely<Database>,
    private readonly adapter: DialectAdapter,
    /** Told of every write to `stories`, through the same executor (the search index keeps in step). */
    private readonly changes: StoryChangeListener,
  ) {}

  /** The same repository working inside a transaction. */
  with(executor: Kysely<Database>): StoriesRepository {
    return new StoriesRepository(executor, this.adapter, this.changes);
  }

  /** Tells the listener (the search index) that these stories changed, through this repository's executor. */
  changed(ids: readonly string[], columns?: readonly string[]): Promise<void> {
    return this.changes.onStoriesChanged(ids, this.kysely, columns);
  }

  toStory(row: StoryRow): Story {
    return storyFromRow(row, this.adapter);
  }

  json(value: unknown): string {
    return this.adapter.writeJson(value);
  }

  async insertStory(row: StoryInsert): Promise<void> {
    await this.kysely.insertInto("stories").values(row).execute();
    await this.changed([row.id]);
  }

  async find(id: string): Promise<Story | undefined> {
    const [row] = await storyById.execute(this.kysely, this.adapter, id);
    return row ? this.toStory(row) : undefined;
  }

  async findMany(ids: string[]): Promise<Story[]> {
    if (ids.length === 0) return [];
    const rows = await storyRowsByIds.execute(this.kysely, this.adapter, ids);
    return rows.map((row) => this.toStory(row));
  }

  /** An update of stories setting `changes`, the revision moved on when they touch the metadata. */
  #updating(changes: StoryUpdate) {
    const update = this.kysely.updateTable("stories").set(changes);
    return touchesMetadata(changes) ? update.set((eb) => ({ revision: eb("revision", "+", 1) })) : update;
  }

  async update(id: string, changes: StoryUpdate): Promise<void> {
    await this.#updating(changes).where("id", "=", id).execute();
    await this.changed([id], Object.keys(changes));
  }

  /**
   * The update, only while the story is still at `revision` (an edit based on
   * it): false when someone changed the metadata in between.
   */
  async updateAtRevision(id: string, revision: number, changes: StoryUpdate): Promise<boolean> {
    const result = await this.#updating(changes)
      .where("id", "=", id)
      .where("revision", "=", revision)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return false;
    await this.changed([id], Object.keys(changes));
    return true;
  }

  /** Stories whose processing state says a job is queued or running for them (ids, at most `limit`). */
  async inProcessing(limit: number, after?: string): Promise<string[]> {
    let query = this.kysely.selectFrom("stories").select("id").where("processing_state", "in", ["queued", "running"]);
    if (after !== undefined) query = query.where("id", ">", after);
    const rows = await query.orderBy("id").limit(limit).execute();
    return rows.map((row) => row.id);
  }

  /** Processing failed with `error`, only while the story still says queued or running; false otherwise. */
  async failProcessing(id: string, error: string): Promise<boolean> {
    const result = await this.kysely
      .updateTable("stories")
      .set({ processing_state: "failed", processing_error: error })
      .where("id", "=", id)
      .where("processing_state", "in", ["queued", "running"])
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return false;
    await this.changed([id], ["processing_state", "processing_error"]);
    return true;
  }

  /** Updates the story only while it is still at `versionNo`; false when another version came first. */
  async updateAtVersion(id: string, versionNo: number, changes: StoryUpdate): Promise<boolean> {
    const result = await this.#updating(changes)
      .where("id", "=", id)
      .where("version_no", "=", versionNo)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return false;
    await this.changed([id], Object.keys(changes));
    return true;
  }

  /** Moves a draft to committed; false when it was not a draft any more (a concurrent commit). */
  async markCommitted(id: string, userId: string, now: string, processing: boolean): Promise<boolean> {
    const result = await this.kysely
      .updateTable("stories")
      .set({
        status: "committed",
        updated_by: userId,
        updated_at: now,
        ...(processing ? { processing_state: "queued", processing_error: null } : {}),
      })
      .where("id", "=", id)
      .where("status", "=", "draft")
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return false;
    await this.changed([id], ["status"]);
    return true;
  }

  async delete(id: string): Promise<void> {
    await this.kysely.deleteFrom("stories").where("id", "=", id).execute();
    await this.changed([id]);
  }

  async anyInFolder(folderId: string): Promise<boolean> {
    const row = await this.kysely
      .selectFrom("stories")
      .select("id")
      .where("folder_id", "=", folderId)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Every story (drafts and trash included) per library: what a library's delete is refused for. */
  async countPerLibrary(libraryId?: string): Promise<Map<string, number>> {
    let query = this.kysely
      .selectFrom("stories")
      .select(["library_id", (eb) => eb.fn.countAll<number>().as("count")])
      .groupBy("library_id");
    if (libraryId !== undefined) query = query.where("library_id", "=", libraryId);
    const rows = await query.execute();
    return new Map(rows.map((row) => [row.library_id, Number(row.count)]));
  }

  /** Non-draft stories per type in these libraries. */
  async countByType(libraryIds: string[]): Promise<Record<StoryType, number>> {
    const counts: Record<StoryType, number> = { photo: 0, video: 0, audio: 0, composite: 0 };
    if (libraryIds.length === 0) return counts;
    const rows = await this.kysely
      .selectFrom("stories")
      .select(["type", (eb) => eb.fn.countAll<number>().as("count")])
      .where("library_id", "in", libraryIds)
      .where("status", "<>", "draft")
      .groupBy("type")
      .execute();
    for (const row of rows) counts[row.type] = Number(row.count);
    return counts;
  }

  async withSha256(libraryIds: string[], sha256: string): Promise<Story[]> {
    if (libraryIds.length === 0) return [];
    const rows = await this.kysely
      .selectFrom("stories")
      .selectAll()
      .where("library_id", "in", libraryIds)
      .where("content_sha256", "=", sha256)
      .orderBy("created_at")
      .execute();
    return rows.map((row) => this.toStory(row));
  }

  /** Hashes held by more than one story of the library. */
  async repeatedSha256(libraryId: string, limit: number): Promise<string[]> {
    const rows = await this.kysely
      .selectFrom("stories")
      .select("content_sha256")
      .where("library_id", "=", libraryId)
      .where("content_sha256", "is not", null)
      .groupBy("content_sha256")
      .having((eb) => eb.fn.countAll(), ">", 1)
      .orderBy("content_sha256")
      .limit(limit)
      .execute();
    return rows.map((row) => row.content_sha256!);
  }

  async photoHashes(libraryId: string): Promise<{ id: string; hash: string }[]> {
    const rows = await this.kysely
      .selectFrom("stories")
      .select(["id", "perceptual_hash"])
      .where("library_id", "=", libraryId)
      .where("type", "=", "photo")
      .where("perceptual_hash", "is not", null)
      .execute();
    return rows.map((row) => ({ id: row.id, hash: row.perceptual_hash! }));
  }

  // Catalogue values

  /**
   * Stories holding a catalogue value, compared in lower case: a single-value
   * column holding any of `values` (a name, or an id), a list column holding
   * `values[0]` (lists hold names).
   */
  #holding(column: CatalogueColumn, values: string[]) {
    return (LIST_COLUMNS as readonly string[]).includes(column)
      ? this.adapter.jsonListHolds(`stories.${column}`, values[0]!)
      : sql<boolean>`lower(${sql.ref(`stories.${column}`)}) in (${sql.join(values)})`;
  }

  async countHolding(column: CatalogueColumn, values: string[]): Promise<number> {
    const row = await this.kysely
      .selectFrom("stories")
      .select((eb) => eb.fn.countAll<number>().as("count"))
      .where(this.#holding(column, values))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /** The stories holding the value, with what the column holds now (a list decoded). */
  async holding(
    column: CatalogueColumn,
    values: string[],
  ): Promise<{ id: string; libraryId: string; value: unknown }[]> {
    const rows = await this.kysely
      .selectFrom("stories")
      .select(["id", "library_id", `${column} as value`])
      .where(this.#holding(column, values))
      .execute();
    const list = (LIST_COLUMNS as readonly string[]).includes(column);
    return rows.map((row) => ({
      id: row.id,
      libraryId: row.library_id,
      value: list && row.value !== null && row.value !== undefined ? this.adapter.readJson(row.value) : row.value,
    }));
  }

  /** Sets one column of several stories, each to its own value (a list encoded); the search index follows. */
  async setColumn(column: CatalogueColumn, values: { id: string; value: unknown }[], now: string): Promise<void> {
    const list = (LIST_COLUMNS as readonly string[]).includes(column);
    for (const { id, value } of values) {
      await this.kysely
        .updateTable("stories")
        .set((eb) => ({ [column]: list ? this.json(value) : value, updated_at: now, revision: eb("revision", "+", 1) }))
        .where("id", "=", id)
        .execute();
    }
    await this.changed(values.map((row) => row.id));
  }

  // Versions

  async insertVersion(version: StoryVersion): Promise<void> {
    await this.kysely
      .insertInto("story_versions")
      .values({
        story_id: version.storyId,
        version_no: version.versionNo,
        oid: version.oid,
        blob_key: version.blobKey,
        sha256: version.sha256,
        size: version.size,
        mime: version.mime,
        original_name: version.originalName,
        note: version.note,
        created_by: version.createdBy,
        created_at: version.createdAt,
      })
      .execute();
  }

  async versions(storyId: string): Promise<StoryVersion[]> {
    const rows = await this.kysely
      .selectFrom("story_versions")
      .selectAll()
      .where("story_id", "=", storyId)
      .orderBy("version_no")
      .execute();
    return rows.map((row) => ({
      storyId: row.story_id,
      versionNo: row.version_no,
      oid: row.oid,
      blobKey: row.blob_key,
      sha256: row.sha256,
      size: row.size === null ? null : Number(row.size),
      mime: row.mime,
      originalName: row.original_name,
      note: row.note,
      createdBy: row.created_by,
      createdAt: row.created_at,
    }));
  }

  // Files

  /** The file of a story or version made in this transaction: it cannot have one of its role yet (no lookup first). */
  async insertFile(file: StoryFile, now: string): Promise<void> {
    const { storyId, versionNo, role } = file;
    await this.kysely
      .insertInto("story_files")
      .values({ id: randomUUID(), story_id: storyId, version_no: versionNo, role, ...fileValues(file, now) })
      .execute();
  }

  /** Inserts or replaces the file of a role; returns the blob key it replaced, if another. */
  async putFile(file: StoryFile, now: string): Promise<string | null> {
    const existing = await this.kysely
      .selectFrom("story_files")
      .select(["id", "blob_key"])
      .where("story_id", "=", file.storyId)
      .where("version_no", "=", file.versionNo)
      .where("role", "=", file.role)
      .executeTakeFirst();
    if (!existing) return this.insertFile(file, now).then(() => null);
    await this.kysely.updateTable("story_files").set(fileValues(file, now)).where("id", "=", existing.id).execute();
    return existing.blob_key === file.blobKey ? null : existing.blob_key;
  }

  async files(storyIds: string[], versionNo?: number): Promise<StoryFile[]> {
    if (storyIds.length === 0) return [];
    if (versionNo === undefined)
      return (await filesOfStories.execute(this.kysely, this.adapter, storyIds)).map(toStoryFile);
    const rows = await this.kysely
      .selectFrom("story_files")
      .selectAll()
      .where("story_id", "in", storyIds)
      .where("version_no", "=", versionNo)
      .orderBy("version_no")
      .orderBy("role")
      .execute();
    return rows.map(toStoryFile);
  }

  async fileByBlobKey(blobKey: string): Promise<StoryFile | undefined> {
    return (await this.#filesWhere("blob_key", blobKey))[0];
  }

  async #filesWhere(column: "blob_key", value: string): Promise<StoryFile[]> {
    const rows = await this.kysely.selectFrom("story_files").selectAll().where(column, "=", value).execute();
    return rows.map(toStoryFile);
  }

  /** Whether any story, version or file still points at the blob (then it must not be deleted). */
  async isBlobReferenced(blobKey: string): Promise<boolean> {
    const [file, version, cover] = await Promise.all([
      this.kysely.selectFrom("story_files").select("id").where("blob_key", "=", blobKey).executeTakeFirst(),
      this.kysely.selectFrom("story_versions").select("oid").where("blob_key", "=", blobKey).executeTakeFirst(),
      this.kysely.selectFrom("stories").select("id").where("cover_key", "=", blobKey).executeTakeFirst(),
    ]);
    return file !== undefined || version !== undefined || cover !== undefined;
  }

  /** Sets the pixel size of a version's file where it is not known yet (the original, once a media job has read it). */
  async fillFileDimensions(storyId: string, versionNo: number, role: string, width: number, height: number) {
    await this.kysely
      .updateTable("story_files")
      .set({ width, height })
      .where("story_id", "=", storyId)
      .where("version_no", "=", versionNo)
      .where("role", "=", role)
      .where("width", "is", null)
      .execute();
  }

  /** Hands a draft's files to another story as one of its versions (new version from a draft). */
  async moveFiles(fromStoryId: string, toStoryId: string, versionNo: number): Promise<void> {
    await this.kysely
      .updateTable("story_files")
      .set({ story_id: toStoryId, version_no: versionNo })
      .where("story_id", "=", fromStoryId)
      .execute();
  }

  // Composite members

  async members(compositeId: string): Promise<string[]> {
    return (await this.membersOf([compositeId])).get(compositeId) ?? [];
  }

  /** The members of each of these composites, in their order, in one query. */
  async membersOf(compositeIds: string[]): Promise<Map<string, string[]>> {
    const members = new Map<string, string[]>();
    if (compositeIds.length === 0) return members;
    const rows = await membersOfComposites.execute(this.kysely, this.adapter, compositeIds);
    for (const row of rows) members.set(row.composite_id, [...(members.get(row.composite_id) ?? []), row.member_id]);
    return members;
  }

  async setMembers(compositeId: string, memberIds: string[]): Promise<void> {
    await this.kysely.deleteFrom("composite_members").where("composite_id", "=", compositeId).execute();
    if (memberIds.length === 0) return;
    await this.kysely
      .insertInto("composite_members")
      .values(memberIds.map((memberId, sort) => ({ composite_id: compositeId, member_id: memberId, sort })))
      .execute();
  }
}

/** What a story_files row says of its file (the columns a replacement changes). */
function fileValues({ blobKey, mime, size, width, height }: StoryFile, now: string) {
  return { blob_key: blobKey, mime, size, width, height, created_at: now };
}
