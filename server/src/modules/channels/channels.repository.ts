import type { Kysely } from "kysely";
import type { DialectAdapter } from "../../db/dialect/index.js";
import type { ChannelsTable, Database } from "../../db/schema.js";
import type { ChannelFormat, ChannelKind, ChannelPresets } from "./channels.schema.js";

export interface ChannelRecord {
  id: string;
  name: string;
  kind: ChannelKind;
  format: ChannelFormat;
  enabled: boolean;
  settings: Record<string, unknown>;
  fieldMapping: Record<string, string>;
  presets: ChannelPresets;
  /** Encrypted; only the service decrypts it, for a delivery or a test. */
  credentials: string | null;
  createdBy: string | null;
  createdAt: string;
  updatedAt: string;
}

/** SQL of the channels table. */
export class ChannelsRepository {
  constructor(
    private readonly kysely: Kysely<Database>,
    private readonly adapter: DialectAdapter,
  ) {}

  with(executor: Kysely<Database>): ChannelsRepository {
    return new ChannelsRepository(executor, this.adapter);
  }

  #record(row: ChannelsTable): ChannelRecord {
    return {
      id: row.id,
      name: row.name,
      kind: row.kind as ChannelKind,
      format: row.format as ChannelFormat,
      enabled: this.adapter.readBoolean(row.enabled),
      settings: this.adapter.readJson<Record<string, unknown>>(row.settings),
      fieldMapping: this.adapter.readJson<Record<string, string>>(row.field_mapping),
      presets: this.adapter.readJson<ChannelPresets>(row.presets) ?? {},
      credentials: row.credentials,
      createdBy: row.created_by,
      createdAt: String(row.created_at),
      updatedAt: String(row.updated_at),
    };
  }

  #row(record: ChannelRecord): ChannelsTable {
    return {
      id: record.id,
      name: record.name,
      kind: record.kind,
      format: record.format,
      enabled: record.enabled,
      settings: this.adapter.writeJson(record.settings),
      field_mapping: this.adapter.writeJson(record.fieldMapping),
      presets: this.adapter.writeJson(record.presets),
      credentials: record.credentials,
      created_by: record.createdBy,
      created_at: record.createdAt,
      updated_at: record.updatedAt,
    };
  }

  async list(): Promise<ChannelRecord[]> {
    const rows = await this.kysely.selectFrom("channels").selectAll().orderBy("name").execute();
    return rows.map((row) => this.#record(row));
  }

  async find(id: string): Promise<ChannelRecord | undefined> {
    const row = await this.kysely.selectFrom("channels").selectAll().where("id", "=", id).executeTakeFirst();
    return row ? this.#record(row) : undefined;
  }

  async findByName(name: string): Promise<ChannelRecord | undefined> {
    const row = await this.kysely.selectFrom("channels").selectAll().where("name", "=", name).executeTakeFirst();
    return row ? this.#record(row) : undefined;
  }

  async insert(record: ChannelRecord): Promise<void> {
    await this.kysely.insertInto("channels").values(this.#row(record)).execute();
  }

  async update(record: ChannelRecord): Promise<void> {
    const { id, created_at, created_by, ...rest } = this.#row(record);
    await this.kysely.updateTable("channels").set(rest).where("id", "=", id).execute();
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.kysely.deleteFrom("channels").where("id", "=", id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
