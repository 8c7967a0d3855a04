import type { Kysely } from "kysely";
import type { Database, StorageCheckProblemsTable, StorageChecksTable } from "../../db/schema.js";
import { queuedRun, type StorageRunFields, storageRunColumns, storageRunFields } from "./storage-run.js";

export type CheckState = StorageChecksTable["state"];
export type ProblemKind = StorageCheckProblemsTable["kind"];

/** What a check has counted so far. */
export interface CheckCounts {
  id: string;
  state: CheckState;
  totalFiles: number;
  checkedFiles: number;
  checkedBytes: number;
  missing: number;
  mismatched: number;
  unreadable: number;
}

export interface CheckRecord extends CheckCounts, StorageRunFields {
  cursor: string | null;
}

export interface ProblemRecord {
  key: string;
  kind: ProblemKind;
  expectedSha256: string;
  expectedSize: number;
  actualSha256: string | null;
  actualSize: number | null;
  detail: string | null;
  foundAt: string;
}

/** A check just queued: nothing counted yet. */
export function queuedCheck(id: string, createdBy: string | null, now: string): CheckRecord {
  const counts = { totalFiles: 0, checkedFiles: 0, checkedBytes: 0, missing: 0, mismatched: 0, unreadable: 0 };
  return { id, state: "queued", ...counts, cursor: null, ...queuedRun(createdBy, now) };
}

export type CheckProgress = Partial<
  Pick<
    CheckRecord,
    | "state"
    | "totalFiles"
    | "checkedFiles"
    | "checkedBytes"
    | "missing"
    | "mismatched"
    | "unreadable"
    | "cursor"
    | "error"
    | "jobId"
    | "finishedAt"
  >
>;

const COLUMNS = {
  state: "state",
  totalFiles: "total_files",
  checkedFiles: "checked_files",
  checkedBytes: "checked_bytes",
  missing: "missing",
  mismatched: "mismatched",
  unreadable: "unreadable",
  cursor: "cursor",
  error: "error",
  jobId: "job_id",
  finishedAt: "finished_at",
} as const satisfies Record<keyof CheckProgress, keyof StorageChecksTable>;

/** The checks kept: older ones (and their problems) go when a new one starts. */
export const CHECKS_KEPT = 20;

/** SQL of the integrity checks: storage_checks and storage_check_problems. */
export class IntegrityCheckRepository {
  constructor(private readonly kysely: Kysely<Database>) {}

  with(executor: Kysely<Database>): IntegrityCheckRepository {
    return new IntegrityCheckRepository(executor);
  }

  #check(row: StorageChecksTable): CheckRecord {
    return {
      id: row.id,
      state: row.state,
      totalFiles: Number(row.total_files),
      checkedFiles: Number(row.checked_files),
      checkedBytes: Number(row.checked_bytes),
      missing: Number(row.missing),
      mismatched: Number(row.mismatched),
      unreadable: Number(row.unreadable),
      cursor: row.cursor,
      ...storageRunFields(row),
    };
  }

  async insert(record: CheckRecord): Promise<void> {
    await this.kysely
      .insertInto("storage_checks")
      .values({
        id: record.id,
        state: record.state,
        total_files: record.totalFiles,
        checked_files: record.checkedFiles,
        checked_bytes: record.checkedBytes,
        missing: record.missing,
        mismatched: record.mismatched,
        unreadable: record.unreadable,
        cursor: record.cursor,
        ...storageRunColumns(record),
      })
      .execute();
  }

  async find(id: string): Promise<CheckRecord | undefined> {
    const row = await this.kysely.selectFrom("storage_checks").selectAll().where("id", "=", id).executeTakeFirst();
    return row ? this.#check(row) : undefined;
  }

  async latest(): Promise<CheckRecord | undefined> {
    const row = await this.kysely
      .selectFrom("storage_checks")
      .selectAll()
      .orderBy("created_at", "desc")
      .limit(1)
      .executeTakeFirst();
    return row ? this.#check(row) : undefined;
  }

  async active(): Promise<CheckRecord | undefined> {
    const row = await this.kysely
      .selectFrom("storage_checks")
      .selectAll()
      .where("state", "in", ["queued", "running"])
      .executeTakeFirst();
    return row ? this.#check(row) : undefined;
  }

  async update(id: string, fields: CheckProgress, now: string): Promise<void> {
    const set: Record<string, unknown> = { updated_at: now };
    for (const [field, column] of Object.entries(COLUMNS)) {
      const value = fields[field as keyof CheckProgress];
      if (value !== undefined) set[column] = value;
    }
    await this.kysely.updateTable("storage_checks").set(set).where("id", "=", id).execute();
  }

  /** Only while the check is still queued or running: a cancel never overwrites an end. */
  async cancel(id: string, now: string): Promise<boolean> {
    const result = await this.kysely
      .updateTable("storage_checks")
      .set({ state: "cancelled", finished_at: now, updated_at: now })
      .where("id", "=", id)
      .where("state", "in", ["queued", "running"])
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Deletes all but the newest `keep` checks (their problems cascade). */
  async prune(keep: number): Promise<void> {
    const old = await this.kysely
      .selectFrom("storage_checks")
      .select("id")
      .orderBy("created_at", "desc")
      .offset(keep)
      .limit(1000)
      .execute();
    if (old.length === 0) return;
    const ids = old.map((row) => row.id);
    await this.kysely.deleteFrom("storage_check_problems").where("check_id", "in", ids).execute();
    await this.kysely.deleteFrom("storage_checks").where("id", "in", ids).execute();
  }

  /** Records a problem once: a resumed check that meets the same blob again adds nothing. */
  async addProblem(checkId: string, problem: ProblemRecord): Promise<void> {
    await this.kysely
      .insertInto("storage_check_problems")
      .values({
        check_id: checkId,
        key: problem.key,
        kind: problem.kind,
        expected_sha256: problem.expectedSha256,
        expected_size: problem.expectedSize,
        actual_sha256: problem.actualSha256,
        actual_size: problem.actualSize,
        detail: problem.detail,
        found_at: problem.foundAt,
      })
      .onConflict((conflict) => conflict.columns(["check_id", "key"]).doNothing())
      .execute();
  }

  /** A check's problems in key order after `after`, a page at a time. */
  async problems(checkId: string, after: string | null, limit: number): Promise<ProblemRecord[]> {
    let query = this.kysely
      .selectFrom("storage_check_problems")
      .selectAll()
      .where("check_id", "=", checkId)
      .orderBy("key")
      .limit(limit);
    if (after !== null) query = query.where("key", ">", after);
    const rows = await query.execute();
    return rows.map((row) => ({
      key: row.key,
      kind: row.kind,
      expectedSha256: row.expected_sha256,
      expectedSize: Number(row.expected_size),
      actualSha256: row.actual_sha256,
      actualSize: row.actual_size === null ? null : Number(row.actual_size),
      detail: row.detail,
      foundAt: String(row.found_at),
    }));
  }
}
