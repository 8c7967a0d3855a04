import { Invalid } from "../../http/errors.js";
import type { AuditCursor, AuditFilter, AuditRecord, AuditRepository } from "./audit.repository.js";
import type { AuditLog } from "./audit-log.js";

/** The largest page the log page may ask for. */
export const MAX_PAGE_SIZE = 200;
/** The widest date range a query may name (a range is optional; paging is by keyset either way). */
export const MAX_RANGE_DAYS = 400;
/** Retention an administrator may choose, in days (null keeps every row). */
export const RETENTION_DAYS = { min: 7, max: 3650 } as const;
/** Rows a prune deletes per statement, so it never holds a long lock on a busy log. */
const PRUNE_BATCH = 5000;

export interface AuditSettings {
  retentionDays: number | null;
  updatedBy: string | null;
  updatedAt: string | null;
}

export interface AuditPage {
  content: AuditRecord[];
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  next: string | null;
}

/** Reading the operation log (the log page, the export) and its retention. Writing is `AuditLog`'s. */
export class AuditService {
  constructor(
    private readonly repository: AuditRepository,
    private readonly log: AuditLog,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async page(filter: AuditFilter, cursor: string | undefined, size: number): Promise<AuditPage> {
    checkFilter(filter);
    const rows = await this.repository.page(filter, cursor === undefined ? undefined : readCursor(cursor), size + 1);
    const content = rows.slice(0, size);
    const last = content.at(-1);
    return { content, next: rows.length > size && last ? writeCursor(last) : null };
  }

  /** Every row matching `filter`, newest first, `batch` rows per query (the export streams these). */
  async *rows(filter: AuditFilter, batch = 1000): AsyncGenerator<AuditRecord> {
    checkFilter(filter);
    let cursor: AuditCursor | undefined;
    for (;;) {
      const rows = await this.repository.page(filter, cursor, batch);
      yield* rows;
      const last = rows.at(-1);
      if (rows.length < batch || !last) return;
      cursor = { at: last.at, id: last.id };
    }
  }

  async settings(): Promise<AuditSettings> {
    const { retentionDays, updatedBy, updatedAt } = await this.repository.settings();
    return { retentionDays, updatedBy, updatedAt };
  }

  async saveSettings(
    actor: { id: string; username: string; ip?: string | null; userAgent?: string | null },
    settings: { retentionDays: number | null },
  ): Promise<AuditSettings> {
    const old = await this.settings();
    const at = this.clock().toISOString();
    await this.repository.transaction(async (repository, trx) => {
      await repository.saveSettings({ retentionDays: settings.retentionDays, archive: false }, actor.username, at);
      await this.log.record(trx, actor, {
        action: "audit.settings",
        target: { type: "setting", id: "audit.retention", label: "retention" },
        before: { retentionDays: old.retentionDays },
        after: { retentionDays: settings.retentionDays },
      });
    });
    return this.settings();
  }

  /**
   * Deletes the rows older than the retention an administrator set (none set: nothing goes),
   * in batches; records the prune itself. Called by the maintenance job.
   */
  async prune(): Promise<number> {
    const { retentionDays } = await this.repository.settings();
    if (retentionDays === null) return 0;
    const before = new Date(this.clock().getTime() - retentionDays * 86_400_000).toISOString();
    let deleted = 0;
    for (;;) {
      const ids = await this.repository.oldestIds(before, PRUNE_BATCH);
      deleted += await this.repository.deleteIds(ids);
      if (ids.length < PRUNE_BATCH) break;
    }
    if (deleted > 0) {
      await this.log.recordEvent(null, {
        action: "audit.prune",
        target: { type: "setting", id: "audit.retention", label: "retention" },
        details: { deleted, before, retentionDays },
      });
    }
    return deleted;
  }
}

function checkFilter(filter: AuditFilter): void {
  if (filter.from !== undefined && filter.to !== undefined) {
    const span = Date.parse(filter.to) - Date.parse(filter.from);
    if (span < 0) throw new Invalid("the date range ends before it starts (to < from)", "invalid_range");
    if (span > MAX_RANGE_DAYS * 86_400_000) {
      throw new Invalid(`the date range is longer than ${MAX_RANGE_DAYS} days`, "range_too_long");
    }
  }
}

/** A page's position as an opaque string: the (at, id) of its last row. */
export function writeCursor(row: { at: string; id: number }): string {
  return Buffer.from(`${row.at}|${row.id}`).toString("base64url");
}

export function readCursor(cursor: string): AuditCursor {
  const [at, id] = Buffer.from(cursor, "base64url").toString().split("|");
  const number = Number(id);
  if (!at || Number.isNaN(Date.parse(at)) || !Number.isSafeInteger(number)) {
    throw new Invalid("cursor is not one this endpoint gave", "invalid_cursor");
  }
  return { at, id: number };
}
