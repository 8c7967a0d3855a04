import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import type { AuditRepository, NewAuditRow } from "./audit.repository.js";

export type AuditResult = "ok" | "denied" | "failed";

/**
 * Who did it and from where. An `Actor` (auth/actor.ts, built once per
 * request by `actorOf`) is one: services pass the actor they were given.
 * null is the system (a job, the maintenance run).
 */
export interface AuditBy {
  id: string | null;
  username: string | null;
  ip?: string | null;
  userAgent?: string | null;
}

/** What the action was done to: a kind (`story`, `user`, `folder`…), its id and a name people recognise. */
export interface AuditTarget {
  type: string;
  id?: string | null;
  label?: string | null;
}

export interface AuditEntry {
  /** `<domain>.<verb>`, lower case: `story.delete`, `folder.rename`, `signin.failure`. */
  action: string;
  target: AuditTarget;
  /** `ok` unless said otherwise: a refusal is `denied`, a failed sign-in `failed`. */
  result?: AuditResult;
  /** For an edit: the changed fields' values before and after (`auditChanges` picks them). */
  before?: Record<string, unknown>;
  after?: Record<string, unknown>;
  details?: Record<string, unknown>;
}

const ACTION = /^[a-z][a-z0-9-]*(\.[a-z][a-z0-9-]*)+$/;
/** A string value longer than this is cut in the log (a long description, a pasted text). */
const MAX_STRING = 2000;
/** A JSON column larger than this after cutting strings is replaced by a note saying so. */
const MAX_JSON = 16_000;
const MAX_USER_AGENT = 512;

export class AuditMisuse extends Error {}

/** The actors something was recorded for (an `Actor` is one object per request: auth/actor.ts). */
const recordedFor = new WeakSet<object>();

/** Whether `record` or `recordEvent` was called with this actor (the request's change recorded itself). */
export function recordedBy(by: object): boolean {
  return recordedFor.has(by);
}

/**
 * The operation log's one writer (docs/audit.md). Every state-changing
 * service calls `record` inside the transaction of its change, so a change
 * never commits without its record and a change that fails leaves none.
 * `recordEvent` is for what changes nothing else: sign-ins, downloads,
 * share visits, refusals.
 */
export class AuditLog {
  constructor(
    private readonly repository: AuditRepository,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /**
   * Records `entries` (one, or one per target of a change that touched
   * several) in `transaction`, the change's own. Refuses an executor that
   * is not a transaction: a record written beside the change could survive
   * its rollback.
   */
  async record(transaction: Kysely<Database>, by: AuditBy | null, entries: AuditEntry | AuditEntry[]): Promise<void> {
    if (!transaction.isTransaction) {
      throw new AuditMisuse("audit.record runs inside the change's transaction: pass the transaction (trx)");
    }
    await this.repository.with(transaction).insert(this.#rows(by, entries));
    if (by) recordedFor.add(by);
  }

  /** Records what changes nothing else (a sign-in, a download, a visit, a refusal), on its own. */
  async recordEvent(by: AuditBy | null, entries: AuditEntry | AuditEntry[]): Promise<void> {
    await this.repository.insert(this.#rows(by, entries));
    if (by) recordedFor.add(by);
  }

  #rows(by: AuditBy | null, entries: AuditEntry | AuditEntry[]): NewAuditRow[] {
    const at = this.clock().toISOString();
    return (Array.isArray(entries) ? entries : [entries]).map((entry) => {
      if (!ACTION.test(entry.action)) throw new AuditMisuse(`audit action ${entry.action} is not <domain>.<verb>`);
      if (!entry.target.type) throw new AuditMisuse(`audit action ${entry.action} names no target type`);
      return {
        at,
        actorId: by?.id ?? null,
        actorName: by?.username ?? null,
        ip: by?.ip ?? null,
        userAgent: by?.userAgent ? by.userAgent.slice(0, MAX_USER_AGENT) : null,
        action: entry.action,
        targetType: entry.target.type,
        targetId: entry.target.id ?? null,
        targetLabel: entry.target.label ? cut(entry.target.label) : null,
        result: entry.result ?? "ok",
        before: bounded(entry.before),
        after: bounded(entry.after),
        details: bounded(entry.details),
      };
    });
  }
}

/**
 * The fields of `after` whose values differ from the same fields of
 * `before` (compared as JSON), each side holding only those: what an edit's
 * record keeps. `before` may be the whole old object (a story) and `after`
 * the patch; fields of `after` that are undefined were not part of the edit.
 */
export function auditChanges(
  before: object,
  after: object,
): { before: Record<string, unknown>; after: Record<string, unknown> } {
  const changed = { before: {} as Record<string, unknown>, after: {} as Record<string, unknown> };
  const old = before as Record<string, unknown>;
  for (const [field, value] of Object.entries(after)) {
    if (value === undefined) continue;
    if (JSON.stringify(old[field] ?? null) === JSON.stringify(value ?? null)) continue;
    changed.before[field] = old[field] ?? null;
    changed.after[field] = value ?? null;
  }
  return changed;
}

function cut(text: string): string {
  return text.length > MAX_STRING ? `${text.slice(0, MAX_STRING)}…` : text;
}

function cutValues(value: unknown): unknown {
  if (typeof value === "string") return cut(value);
  if (Array.isArray(value)) return value.map(cutValues);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, cutValues(item)]));
  }
  return value;
}

function bounded(value: Record<string, unknown> | undefined): Record<string, unknown> | null {
  if (value === undefined) return null;
  const cutValue = cutValues(value) as Record<string, unknown>;
  const size = JSON.stringify(cutValue).length;
  return size > MAX_JSON ? { truncated: true, size } : cutValue;
}
