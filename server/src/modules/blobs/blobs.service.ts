import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import type { BlobRow, BlobsRepository } from "./blobs.repository.js";

/**
 * The blob registry (`blobs`): one row for each stored original (an upload,
 * an edited image, a cover), so the sweeper can tell a file that belongs
 * from an orphan. Other modules register and forget rows here, in their own
 * transaction when they pass one.
 */
export class BlobsService {
  constructor(private readonly rows: BlobsRepository) {}

  async register(row: BlobRow, transaction?: Kysely<Database>): Promise<void> {
    await this.rows.insert(row, transaction);
  }

  async find(key: string): Promise<BlobRow | undefined> {
    return this.rows.find(key);
  }

  /** Drops the rows of keys nothing uses any more; their bytes go after the caller's commit. */
  async forget(keys: string[], transaction?: Kysely<Database>): Promise<void> {
    await this.rows.deleteMany(keys, transaction);
  }

  /** Registered blobs in key order after `after` (null: from the start): what an integrity check reads. */
  async rowsAfter(after: string | null, limit: number): Promise<Pick<BlobRow, "key" | "sha256" | "size">[]> {
    return this.rows.rowsAfter(after, limit);
  }

  async count(): Promise<number> {
    return this.rows.count();
  }
}
