import { ORIGINALS_PREFIX } from "./blob-keys.js";
import type { BlobStore } from "./blob-store.js";
import type { BlobsRepository } from "./blobs.repository.js";

export interface SweepReport {
  /** Blobs under originals/ that were looked at. */
  scanned: number;
  /** Orphans (no registry row, older than the grace period) that were deleted. */
  deleted: string[];
  /** Orphans kept because they are younger than the grace period (an upload may be finishing). */
  young: string[];
  /** Registry rows whose blob is missing from the store: reported, never deleted (a person decides). */
  missing: string[];
}

export interface SweepOptions {
  /** Orphans younger than this are left alone (default one hour): the upload that wrote them may be inserting its row. */
  graceMs?: number;
  now?: Date;
}

const BATCH = 500;

/**
 * Finds what a crash between "blob stored" and "row inserted" leaves behind,
 * and rows whose blob went missing. Safe to run while uploads go on: an
 * upload stores its blob before its row, and the grace period covers the gap.
 */
export class BlobSweeper {
  constructor(
    private readonly store: BlobStore,
    private readonly blobs: BlobsRepository,
  ) {}

  async sweep(options: SweepOptions = {}): Promise<SweepReport> {
    const graceMs = options.graceMs ?? 60 * 60 * 1000;
    const cutoff = (options.now ?? new Date()).getTime() - graceMs;
    const report: SweepReport = { scanned: 0, deleted: [], young: [], missing: [] };

    const judge = async (keys: string[]) => {
      const registered = await this.blobs.existingKeys(keys);
      for (const key of keys) {
        if (registered.has(key)) continue;
        const stat = await this.store.stat(key);
        if (!stat) continue;
        // A store that cannot tell the age never has its orphans deleted blind.
        if (stat.modifiedAt === undefined || stat.modifiedAt.getTime() > cutoff) {
          report.young.push(key);
          continue;
        }
        await this.store.delete(key);
        report.deleted.push(key);
      }
    };
    let batch: string[] = [];
    for await (const key of this.store.list(ORIGINALS_PREFIX)) {
      report.scanned++;
      batch.push(key);
      if (batch.length === BATCH) {
        await judge(batch);
        batch = [];
      }
    }
    await judge(batch);

    let after = "";
    for (;;) {
      const keys = await this.blobs.keysAfter(after, BATCH);
      if (keys.length === 0) break;
      for (const key of keys) if (!(await this.store.stat(key))) report.missing.push(key);
      after = keys[keys.length - 1]!;
    }
    return report;
  }
}
