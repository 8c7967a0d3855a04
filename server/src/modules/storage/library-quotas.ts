import type { Kysely } from "kysely";
import type { Db } from "../../db/database.js";
import type { Database } from "../../db/schema.js";
import { AppError } from "../../http/errors.js";
import type { AuditLog } from "../audit/audit-log.js";
import type { Actor } from "../auth/actor.js";
import type { LibraryBlobs } from "./storage-moves.service.js";
import type { StorageLibraries } from "./storage-targets.service.js";

/** The library is full: 413 naming its quota and usage; nothing of the file is kept. */
export class LibraryQuotaExceeded extends AppError {
  constructor(libraryId: string, used: number, quota: number, size: number) {
    super(
      413,
      "library_quota_exceeded",
      `the quota of library ${libraryId} is exceeded: ${used} of ${quota} bytes are used and this file needs ${size} more`,
    );
    this.withMessageCode("storage.libraryQuotaExceeded", { library: libraryId, used, quota, size });
  }
}

export interface LibraryQuotaView {
  libraryId: string;
  libraryName: string;
  usedBytes: number;
  /** Null: no limit. */
  quotaBytes: number | null;
}

/** SQL of `library_quotas` (storage module), nothing else. */
class LibraryQuotasRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async all(): Promise<Map<string, number>> {
    const rows = await this.db.selectFrom("library_quotas").select(["library_id", "quota_bytes"]).execute();
    return new Map(rows.map((row) => [row.library_id, Number(row.quota_bytes)]));
  }

  /** The library's quota row, locked until `trx` ends (PostgreSQL; SQLite's transactions take turns). */
  async lock(libraryId: string, trx: Kysely<Database>, postgres: boolean): Promise<number | null> {
    let read = trx.selectFrom("library_quotas").select("quota_bytes").where("library_id", "=", libraryId);
    if (postgres) read = read.forUpdate();
    const row = await read.executeTakeFirst();
    return row ? Number(row.quota_bytes) : null;
  }

  async of(libraryId: string, executor: Kysely<Database> = this.db): Promise<number | null> {
    const row = await executor
      .selectFrom("library_quotas")
      .select("quota_bytes")
      .where("library_id", "=", libraryId)
      .executeTakeFirst();
    return row ? Number(row.quota_bytes) : null;
  }

  async set(libraryId: string, quotaBytes: number | null, by: string, at: string, trx: Kysely<Database>) {
    if (quotaBytes === null) {
      await trx.deleteFrom("library_quotas").where("library_id", "=", libraryId).execute();
      return;
    }
    await trx
      .insertInto("library_quotas")
      .values({ library_id: libraryId, quota_bytes: quotaBytes, updated_by: by, updated_at: at })
      .onConflict((conflict) =>
        conflict.column("library_id").doUpdateSet({ quota_bytes: quotaBytes, updated_by: by, updated_at: at }),
      )
      .execute();
  }
}

/**
 * Quotas per library (/manage/storage/setting): the most bytes a library's
 * stories may hold, counted like the storage monitor (originals, renditions,
 * older versions). Checked when an upload is created (its declared length)
 * and again with the final size before its bytes are stored (docs/storage.md,
 * "Quotas"). Users' quotas are the network disk's (`/disk/quotas`).
 */
export class LibraryQuotas {
  readonly #rows: LibraryQuotasRepository;

  constructor(
    private readonly deps: {
      db: Db;
      audit: AuditLog;
      libraries: () => StorageLibraries;
      blobs: () => Pick<LibraryBlobs, "libraryBytes">;
      clock?: () => Date;
    },
  ) {
    this.#rows = new LibraryQuotasRepository(deps.db.kysely);
  }

  /** Every library with its usage and quota, the largest user first. */
  async list(): Promise<LibraryQuotaView[]> {
    const [libraries, quotas] = await Promise.all([this.deps.libraries().list(), this.#rows.all()]);
    const views = await Promise.all(
      libraries.map(async (library) => ({
        libraryId: library.id,
        libraryName: library.name,
        usedBytes: await this.deps.blobs().libraryBytes(library.id),
        quotaBytes: quotas.get(library.id) ?? null,
      })),
    );
    return views.sort((a, b) => b.usedBytes - a.usedBytes || a.libraryId.localeCompare(b.libraryId));
  }

  /** The quotas set, by library id (the storage monitor shows them beside the usage). */
  quotas(): Promise<Map<string, number>> {
    return this.#rows.all();
  }

  async get(libraryId: string): Promise<LibraryQuotaView> {
    const library = await this.deps.libraries().get(libraryId);
    return {
      libraryId,
      libraryName: library.name,
      usedBytes: await this.deps.blobs().libraryBytes(libraryId),
      quotaBytes: await this.#rows.of(libraryId),
    };
  }

  /** Sets (or with null removes) a library's quota; audited with before and after in the same transaction. */
  async set(actor: Actor, libraryId: string, quotaBytes: number | null): Promise<LibraryQuotaView> {
    const library = await this.deps.libraries().get(libraryId);
    const now = (this.deps.clock ?? (() => new Date()))().toISOString();
    await this.deps.db.kysely.transaction().execute(async (trx) => {
      const before = await this.#rows.of(libraryId, trx);
      await this.#rows.set(libraryId, quotaBytes, actor.username, now, trx);
      await this.deps.audit.record(trx, actor, {
        action: "storage.library-quota-set",
        target: { type: "library", id: libraryId, label: library.name },
        before: { quotaBytes: before },
        after: { quotaBytes },
      });
    });
    return this.get(libraryId);
  }

  /**
   * The check that counts, inside the transaction that writes the new file's story (`trx`, which
   * already holds it): the library's quota row is locked until `trx` ends, so two uploads finishing
   * together in one library take turns, and the second sees the first's file. 413 when the library
   * would then hold more than its quota (`size`: the new file's bytes, counted in the usage).
   */
  async checkWithin(trx: Kysely<Database>, libraryId: string, size: number): Promise<void> {
    const quota = await this.#rows.lock(libraryId, trx, this.deps.db.adapter.name === "postgres");
    if (quota === null) return;
    const used = await this.deps.blobs().libraryBytes(libraryId, trx);
    if (used > quota) throw new LibraryQuotaExceeded(libraryId, used - size, quota, size);
  }

  /** 413 when `extra` more bytes would take the library past its quota (no quota: no limit); an early answer, unlocked. */
  async check(libraryId: string, extra: number): Promise<void> {
    const quota = await this.#rows.of(libraryId);
    if (quota === null) return;
    const used = await this.deps.blobs().libraryBytes(libraryId);
    if (used + extra > quota) throw new LibraryQuotaExceeded(libraryId, used, quota, extra);
  }
}
