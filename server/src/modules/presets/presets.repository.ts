import type { Kysely, Selectable } from "kysely";
import type { Db } from "../../db/database.js";
import { type NamedRowsQuery, pageByName } from "../../db/named-rows.js";
import type { Database, DownloadPresetsTable, PresetRenditionsTable, WatermarkPresetsTable } from "../../db/schema.js";

export type WatermarkPresetRow = Selectable<WatermarkPresetsTable>;
export type DownloadPresetRow = Omit<Selectable<DownloadPresetsTable>, "role_ids"> & { role_ids: string[] };
export type RenditionRow = Omit<Selectable<PresetRenditionsTable>, "size"> & { size: number | null };

/** SQL of the watermark presets, download presets and their cached renditions (the module owns the three tables). */
export class PresetsRepository {
  constructor(
    private readonly db: Db,
    private readonly kysely: Kysely<Database> = db.kysely,
  ) {}

  /** The same repository inside a caller's transaction. */
  with(executor: Kysely<Database>): PresetsRepository {
    return new PresetsRepository(this.db, executor);
  }

  transaction<T>(work: (trx: Kysely<Database>, repository: PresetsRepository) => Promise<T>): Promise<T> {
    return this.kysely.transaction().execute((trx) => work(trx, this.with(trx)));
  }

  #json(value: unknown): string {
    return this.db.adapter.writeJson(value);
  }

  // ------------------------------------------------------------ watermark presets

  #watermark(row: WatermarkPresetRow): WatermarkPresetRow {
    return { ...row, settings: this.db.adapter.readJson(row.settings) };
  }

  async listWatermarks(query: NamedRowsQuery) {
    const { rows, total } = await pageByName(this.kysely.selectFrom("watermark_presets"), query);
    return { rows: rows.map((row) => this.#watermark(row)), total };
  }

  async findWatermark(id: string): Promise<WatermarkPresetRow | undefined> {
    const row = await this.kysely.selectFrom("watermark_presets").selectAll().where("id", "=", id).executeTakeFirst();
    return row ? this.#watermark(row) : undefined;
  }

  async watermarkNamed(name: string): Promise<{ id: string } | undefined> {
    return this.kysely.selectFrom("watermark_presets").select("id").where("name", "=", name).executeTakeFirst();
  }

  async insertWatermark(row: WatermarkPresetRow): Promise<void> {
    await this.kysely
      .insertInto("watermark_presets")
      .values({ ...row, settings: this.#json(row.settings) })
      .execute();
  }

  async updateWatermark(row: WatermarkPresetRow): Promise<void> {
    const { id, ...rest } = row;
    await this.kysely
      .updateTable("watermark_presets")
      .set({ ...rest, settings: this.#json(rest.settings) })
      .where("id", "=", id)
      .execute();
  }

  async deleteWatermark(id: string): Promise<void> {
    await this.kysely.deleteFrom("watermark_presets").where("id", "=", id).execute();
  }

  // ------------------------------------------------------------ download presets

  #download(row: Selectable<DownloadPresetsTable>): DownloadPresetRow {
    const { adapter } = this.db;
    return {
      ...row,
      settings: adapter.readJson(row.settings),
      role_ids: adapter.readJson<string[]>(row.role_ids),
      enabled: adapter.readBoolean(row.enabled),
    };
  }

  async listDownloads(query: NamedRowsQuery) {
    const { rows, total } = await pageByName(this.kysely.selectFrom("download_presets"), query);
    return { rows: rows.map((row) => this.#download(row)), total };
  }

  async enabledDownloads(storyType?: string): Promise<DownloadPresetRow[]> {
    let query = this.kysely.selectFrom("download_presets").selectAll().where("enabled", "=", true);
    if (storyType) query = query.where("story_type", "=", storyType as DownloadPresetRow["story_type"]);
    return (await query.orderBy("name").execute()).map((row) => this.#download(row));
  }

  async findDownload(id: string): Promise<DownloadPresetRow | undefined> {
    const row = await this.kysely.selectFrom("download_presets").selectAll().where("id", "=", id).executeTakeFirst();
    return row ? this.#download(row) : undefined;
  }

  async downloadNamed(name: string): Promise<{ id: string } | undefined> {
    return this.kysely.selectFrom("download_presets").select("id").where("name", "=", name).executeTakeFirst();
  }

  /** The download presets that draw this watermark. */
  async downloadsUsingWatermark(watermarkId: string): Promise<{ id: string; name: string }[]> {
    return this.kysely
      .selectFrom("download_presets")
      .select(["id", "name"])
      .where("watermark_preset_id", "=", watermarkId)
      .orderBy("name")
      .execute();
  }

  async insertDownload(row: DownloadPresetRow): Promise<void> {
    await this.kysely
      .insertInto("download_presets")
      .values({ ...row, settings: this.#json(row.settings), role_ids: this.#json(row.role_ids) })
      .execute();
  }

  async updateDownload(row: DownloadPresetRow): Promise<void> {
    const { id, ...rest } = row;
    await this.kysely
      .updateTable("download_presets")
      .set({ ...rest, settings: this.#json(rest.settings), role_ids: this.#json(rest.role_ids) })
      .where("id", "=", id)
      .execute();
  }

  async bumpDownloadRevisions(ids: string[], at: string): Promise<void> {
    if (ids.length === 0) return;
    await this.kysely
      .updateTable("download_presets")
      .set((eb) => ({ revision: eb("revision", "+", 1), updated_at: at }))
      .where("id", "in", ids)
      .execute();
  }

  async deleteDownload(id: string): Promise<void> {
    await this.kysely.deleteFrom("download_presets").where("id", "=", id).execute();
  }

  // ------------------------------------------------------------ renditions

  #rendition(row: Selectable<PresetRenditionsTable>): RenditionRow {
    return { ...row, size: row.size === null ? null : Number(row.size) };
  }

  async findRendition(id: string): Promise<RenditionRow | undefined> {
    const row = await this.kysely.selectFrom("preset_renditions").selectAll().where("id", "=", id).executeTakeFirst();
    return row ? this.#rendition(row) : undefined;
  }

  async renditionsOf(presetId: string, storyIds: string[]): Promise<RenditionRow[]> {
    if (storyIds.length === 0) return [];
    const rows = await this.kysely
      .selectFrom("preset_renditions")
      .selectAll()
      .where("preset_id", "=", presetId)
      .where("story_id", "in", storyIds)
      .execute();
    return rows.map((row) => this.#rendition(row));
  }

  /** Inserts a queued rendition unless one exists for (preset, story, version); true when this call made it. */
  async insertRendition(row: RenditionRow): Promise<boolean> {
    const result = await this.kysely
      .insertInto("preset_renditions")
      .values(row)
      .onConflict((conflict) => conflict.columns(["preset_id", "story_id", "version_no"]).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  /** Sets a rendition's state when it is still for `revision`; false when the preset moved on meanwhile. */
  async updateRendition(
    id: string,
    revision: number,
    changes: Partial<Omit<RenditionRow, "id" | "preset_id" | "story_id" | "version_no">>,
  ): Promise<boolean> {
    const result = await this.kysely
      .updateTable("preset_renditions")
      .set(changes)
      .where("id", "=", id)
      .where("revision", "=", revision)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Removes the renditions of presets (all of them, on an edit or a delete); returns their blob keys. */
  async deleteRenditionsOf(presetIds: string[]): Promise<string[]> {
    if (presetIds.length === 0) return [];
    const keys = await this.kysely
      .selectFrom("preset_renditions")
      .select("blob_key")
      .where("preset_id", "in", presetIds)
      .execute();
    await this.kysely.deleteFrom("preset_renditions").where("preset_id", "in", presetIds).execute();
    return keys.flatMap((row) => (row.blob_key ? [row.blob_key] : []));
  }

  /** Removes one rendition (a failed one asked for again). */
  async deleteRendition(id: string): Promise<void> {
    await this.kysely.deleteFrom("preset_renditions").where("id", "=", id).execute();
  }
}
