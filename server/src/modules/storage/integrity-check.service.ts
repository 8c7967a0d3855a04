import { randomUUID } from "node:crypto";
import type { Db } from "../../db/database.js";
import { Conflict, NotFound } from "../../http/errors.js";
import type { AuditLog } from "../audit/audit-log.js";
import type { Actor } from "../auth/actor.js";
import type { JobEnqueuer } from "../jobs/job-types.js";
import { INTEGRITY_CHECK_JOB } from "./integrity-check.job.js";
import {
  CHECKS_KEPT,
  type CheckCounts,
  type CheckRecord,
  type IntegrityCheckRepository,
  type ProblemRecord,
  queuedCheck,
} from "./integrity-check.repository.js";

export interface CheckView extends CheckCounts {
  error: string | null;
  createTime: string;
  finishTime: string | null;
}

export interface ProblemPage {
  problems: ProblemRecord[];
  /** The key to pass as `after` for the next page, or null at the end. */
  next: string | null;
}

/**
 * The integrity check an administrator starts from the storage monitor: one
 * at a time, as a durable job (integrity-check.job.ts) with progress, its
 * problems listed afterwards. Recorded in the operation log.
 */
export class IntegrityCheckService {
  constructor(
    private readonly deps: {
      db: Db;
      rows: IntegrityCheckRepository;
      jobs: () => JobEnqueuer;
      audit: AuditLog;
      clock?: () => Date;
    },
  ) {}

  async start(actor: Actor): Promise<CheckView> {
    if (await this.deps.rows.active()) {
      throw new Conflict(
        "an integrity check is already running; wait for it to end or cancel it",
        "check_in_progress",
      ).withMessageCode("storage.checkInProgress");
    }
    const now = this.#now();
    const id = randomUUID();
    await this.deps.db.kysely.transaction().execute(async (trx) => {
      const rows = this.deps.rows.with(trx);
      await rows.insert(queuedCheck(id, actor.id, now));
      const jobId = await this.deps.jobs().enqueue(INTEGRITY_CHECK_JOB, { checkId: id }, { transaction: trx });
      await rows.update(id, { jobId }, now);
      await rows.prune(CHECKS_KEPT);
      await this.deps.audit.record(trx, actor, {
        action: "storage.integrity-check",
        target: { type: "storage", id, label: "integrity check" },
      });
    });
    return this.get(id);
  }

  /** The newest check, or null when none was ever started. */
  async latest(): Promise<CheckView | null> {
    const check = await this.deps.rows.latest();
    return check ? this.#view(check) : null;
  }

  async get(id: string): Promise<CheckView> {
    return this.#view(await this.#find(id));
  }

  async problems(id: string, after: string | null, limit: number): Promise<ProblemPage> {
    await this.#find(id);
    const problems = await this.deps.rows.problems(id, after, limit + 1);
    const more = problems.length > limit;
    const page = problems.slice(0, limit);
    return { problems: page, next: more ? (page.at(-1)?.key ?? null) : null };
  }

  async cancel(actor: Actor, id: string): Promise<CheckView> {
    await this.#find(id);
    await this.deps.db.kysely.transaction().execute(async (trx) => {
      if (!(await this.deps.rows.with(trx).cancel(id, this.#now()))) {
        throw new Conflict("this integrity check has already ended", "check_ended").withMessageCode(
          "storage.checkEnded",
        );
      }
      await this.deps.audit.record(trx, actor, {
        action: "storage.integrity-check.cancel",
        target: { type: "storage", id, label: "integrity check" },
      });
    });
    return this.get(id);
  }

  async #find(id: string): Promise<CheckRecord> {
    const check = await this.deps.rows.find(id);
    if (!check) throw new NotFound(`integrity check ${id} does not exist`, "check_not_found");
    return check;
  }

  #view(check: CheckRecord): CheckView {
    return {
      id: check.id,
      state: check.state,
      totalFiles: Math.max(check.totalFiles, check.checkedFiles),
      checkedFiles: check.checkedFiles,
      checkedBytes: check.checkedBytes,
      missing: check.missing,
      mismatched: check.mismatched,
      unreadable: check.unreadable,
      error: check.error,
      createTime: check.createdAt,
      finishTime: check.finishedAt,
    };
  }

  #now(): string {
    return (this.deps.clock?.() ?? new Date()).toISOString();
  }
}
