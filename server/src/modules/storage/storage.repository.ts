import type { Kysely } from "kysely";
import type { DialectAdapter } from "../../db/dialect/index.js";
import type { Database, StorageMovesTable, StorageTargetsTable } from "../../db/schema.js";
import { type StorageRunFields, storageRunColumns, storageRunFields } from "./storage-run.js";

export type TargetKind = "local" | "s3";

export interface LocalSettings {
  directory: string;
}

export interface S3Settings {
  endpoint: string | null;
  region: string;
  bucket: string;
  prefix: string | null;
  pathStyle: boolean;
  accessKeyId: string | null;
}

export interface TargetRecord {
  id: string;
  name: string;
  kind: TargetKind;
  settings: LocalSettings | S3Settings;
  /** Encrypted; only the service decrypts it, to build the target's store. */
  secret: string | null;
  isDefault: boolean;
  createdBy: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface LocationRecord {
  targetId: string;
  previousTargetId: string | null;
}

export type MoveState = StorageMovesTable["state"];

export interface MoveRecord extends StorageRunFields {
  id: string;
  libraryId: string;
  targetId: string;
  state: MoveState;
  totalFiles: number;
  movedFiles: number;
  movedBytes: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** SQL of the storage module's tables: storage_targets, blob_locations, storage_moves. */
export class StorageRepository {
  constructor(
    private readonly kysely: Kysely<Database>,
    private readonly adapter: DialectAdapter,
  ) {}

  with(executor: Kysely<Database>): StorageRepository {
    return new StorageRepository(executor, this.adapter);
  }

  #target(row: StorageTargetsTable): TargetRecord {
    return {
      id: row.id,
      name: row.name,
      kind: row.kind,
      settings: this.adapter.readJson<LocalSettings | S3Settings>(row.settings),
      secret: row.secret,
      isDefault: this.adapter.readBoolean(row.is_default),
      createdBy: row.created_by,
      createdAt: String(row.created_at),
      updatedAt: String(row.updated_at),
    };
  }

  async targets(): Promise<TargetRecord[]> {
    const rows = await this.kysely.selectFrom("storage_targets").selectAll().orderBy("name").execute();
    return rows.map((row) => this.#target(row));
  }

  async target(id: string): Promise<TargetRecord | undefined> {
    // Ids are uuids (a PostgreSQL uuid column refuses other text): anything else names no target.
    if (!UUID.test(id)) return undefined;
    const row = await this.kysely.selectFrom("storage_targets").selectAll().where("id", "=", id).executeTakeFirst();
    return row ? this.#target(row) : undefined;
  }

  async targetByName(name: string): Promise<TargetRecord | undefined> {
    const row = await this.kysely.selectFrom("storage_targets").selectAll().where("name", "=", name).executeTakeFirst();
    return row ? this.#target(row) : undefined;
  }

  async insertTarget(record: TargetRecord): Promise<void> {
    await this.kysely
      .insertInto("storage_targets")
      .values({
        id: record.id,
        name: record.name,
        kind: record.kind,
        settings: this.adapter.writeJson(record.settings),
        secret: record.secret,
        is_default: record.isDefault,
        created_by: record.createdBy,
        created_at: record.createdAt,
        updated_at: record.updatedAt,
      })
      .execute();
  }

  async updateTarget(record: TargetRecord): Promise<void> {
    await this.kysely
      .updateTable("storage_targets")
      .set({
        name: record.name,
        settings: this.adapter.writeJson(record.settings),
        secret: record.secret,
        updated_at: record.updatedAt,
      })
      .where("id", "=", record.id)
      .execute();
  }

  async deleteTarget(id: string): Promise<void> {
    await this.kysely.deleteFrom("storage_targets").where("id", "=", id).execute();
  }

  /** Makes `id` the one default (null: the built-in storage). */
  async setDefault(id: string | null, now: string): Promise<void> {
    await this.kysely
      .updateTable("storage_targets")
      .set({ is_default: false, updated_at: now })
      .where("is_default", "=", true)
      .execute();
    if (id !== null) {
      await this.kysely
        .updateTable("storage_targets")
        .set({ is_default: true, updated_at: now })
        .where("id", "=", id)
        .execute();
    }
  }

  async location(key: string): Promise<LocationRecord | undefined> {
    const row = await this.kysely
      .selectFrom("blob_locations")
      .select(["target_id", "previous_target_id"])
      .where("key", "=", key)
      .executeTakeFirst();
    return row ? { targetId: row.target_id, previousTargetId: row.previous_target_id } : undefined;
  }

  /** The location rows of these keys (the sweeper's batches). */
  async locations(keys: string[]): Promise<Map<string, LocationRecord>> {
    if (keys.length === 0) return new Map();
    const rows = await this.kysely
      .selectFrom("blob_locations")
      .select(["key", "target_id", "previous_target_id"])
      .where("key", "in", keys)
      .execute();
    return new Map(rows.map((row) => [row.key, { targetId: row.target_id, previousTargetId: row.previous_target_id }]));
  }

  async setLocation(key: string, location: LocationRecord, now: string): Promise<void> {
    const values = { target_id: location.targetId, previous_target_id: location.previousTargetId, updated_at: now };
    await this.kysely
      .insertInto("blob_locations")
      .values({ key, ...values })
      .onConflict((conflict) => conflict.column("key").doUpdateSet(values))
      .execute();
  }

  async deleteLocation(key: string): Promise<void> {
    await this.kysely.deleteFrom("blob_locations").where("key", "=", key).execute();
  }

  /** How many blobs live in each target (the built-in storage's are not counted: they have no row). */
  async filesPerTarget(): Promise<Map<string, number>> {
    const rows = await this.kysely
      .selectFrom("blob_locations")
      .select((eb) => ["target_id", eb.fn.countAll<number>().as("files")])
      .groupBy("target_id")
      .execute();
    return new Map(rows.map((row) => [row.target_id, Number(row.files)]));
  }

  #move(row: StorageMovesTable): MoveRecord {
    return {
      id: row.id,
      libraryId: row.library_id,
      targetId: row.target_id,
      state: row.state,
      totalFiles: Number(row.total_files),
      movedFiles: Number(row.moved_files),
      movedBytes: Number(row.moved_bytes),
      ...storageRunFields(row),
    };
  }

  async insertMove(record: MoveRecord): Promise<void> {
    await this.kysely
      .insertInto("storage_moves")
      .values({
        id: record.id,
        library_id: record.libraryId,
        target_id: record.targetId,
        state: record.state,
        total_files: record.totalFiles,
        moved_files: record.movedFiles,
        moved_bytes: record.movedBytes,
        ...storageRunColumns(record),
      })
      .execute();
  }

  async move(id: string): Promise<MoveRecord | undefined> {
    const row = await this.kysely.selectFrom("storage_moves").selectAll().where("id", "=", id).executeTakeFirst();
    return row ? this.#move(row) : undefined;
  }

  /** The newest move of each library. */
  async latestMoves(): Promise<MoveRecord[]> {
    const rows = await this.kysely.selectFrom("storage_moves").selectAll().orderBy("created_at", "desc").execute();
    const latest = new Map<string, MoveRecord>();
    for (const row of rows) if (!latest.has(row.library_id)) latest.set(row.library_id, this.#move(row));
    return [...latest.values()];
  }

  async activeMoveOf(libraryId: string): Promise<MoveRecord | undefined> {
    const row = await this.kysely
      .selectFrom("storage_moves")
      .selectAll()
      .where("library_id", "=", libraryId)
      .where("state", "in", ["queued", "running"])
      .executeTakeFirst();
    return row ? this.#move(row) : undefined;
  }

  /** Moves still queued or running toward `targetId`. */
  async activeMovesTo(targetId: string): Promise<number> {
    const row = await this.kysely
      .selectFrom("storage_moves")
      .select((eb) => eb.fn.countAll<number>().as("moves"))
      .where("target_id", "=", targetId)
      .where("state", "in", ["queued", "running"])
      .executeTakeFirstOrThrow();
    return Number(row.moves);
  }

  /** The targets moves are still queued or running toward. */
  async activeMoveTargets(): Promise<Set<string>> {
    const rows = await this.kysely
      .selectFrom("storage_moves")
      .select("target_id")
      .distinct()
      .where("state", "in", ["queued", "running"])
      .execute();
    return new Set(rows.map((row) => row.target_id));
  }

  async updateMove(
    id: string,
    fields: Partial<
      Pick<MoveRecord, "state" | "totalFiles" | "movedFiles" | "movedBytes" | "error" | "jobId" | "finishedAt">
    >,
    now: string,
  ): Promise<void> {
    await this.kysely
      .updateTable("storage_moves")
      .set({
        ...(fields.state !== undefined ? { state: fields.state } : {}),
        ...(fields.totalFiles !== undefined ? { total_files: fields.totalFiles } : {}),
        ...(fields.movedFiles !== undefined ? { moved_files: fields.movedFiles } : {}),
        ...(fields.movedBytes !== undefined ? { moved_bytes: fields.movedBytes } : {}),
        ...(fields.error !== undefined ? { error: fields.error } : {}),
        ...(fields.jobId !== undefined ? { job_id: fields.jobId } : {}),
        ...(fields.finishedAt !== undefined ? { finished_at: fields.finishedAt } : {}),
        updated_at: now,
      })
      .where("id", "=", id)
      .execute();
  }
}
