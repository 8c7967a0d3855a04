import type { ExpressionBuilder, Kysely, Selectable, Updateable } from "kysely";
import type { DialectAdapter } from "../../db/dialect/index.js";
import type {
  Database,
  ShareDownloadPolicy,
  ShareKind,
  ShareMetadata,
  SharesTable,
  ShareVisitAction,
} from "../../db/schema.js";
import { keywordPattern } from "../../http/envelope.js";

export interface ShareItem {
  libraryId: string;
  storyId: string;
}

/** The upload drop of a share: where visitors' files go, its limits, how many came (docs/sharing.md). */
export interface ShareDrop {
  libraryId: string;
  folderId: string;
  /** At most this many files; null: no limit. */
  maxFiles: number | null;
  /** At most this many bytes per file; null: the upload limit. */
  maxBytes: number | null;
  files: number;
}

/** A share as the service sees it (no token: only its hash is stored). */
export interface ShareRecord {
  id: string;
  tokenHash: string;
  kind: ShareKind;
  title: string;
  message: string | null;
  libraryId: string | null;
  folderId: string | null;
  searchQuery: Record<string, unknown> | null;
  passwordHash: string | null;
  expiresAt: string | null;
  viewLimit: number | null;
  downloadLimit: number | null;
  views: number;
  downloads: number;
  downloadPolicy: ShareDownloadPolicy;
  /** With downloadPolicy "preset": the download preset whose rendition visitors get. */
  downloadPresetId: string | null;
  metadata: ShareMetadata;
  keepLocation: boolean;
  createdBy: string | null;
  createdAt: string;
  updatedAt: string;
  revokedAt: string | null;
  lastVisitAt: string | null;
  /** Visitors may upload files into a folder; null: no drop. */
  drop: ShareDrop | null;
}

export interface SharedStoryCount {
  storyId: string;
  libraryId: string;
  createdBy: string | null;
  shares: number;
}

export type NewShare = Omit<ShareRecord, "views" | "downloads" | "revokedAt" | "lastVisitAt" | "updatedAt" | "drop"> & {
  drop: Omit<ShareDrop, "files"> | null;
};

/** One visitor action, as the visitor log keeps it. */
export interface ShareVisitRecord {
  id: number;
  shareId: string;
  at: string;
  address: string | null;
  action: ShareVisitAction;
  storyId: string | null;
  userAgent: string | null;
  /** The name a visitor gave with an upload. */
  visitorName: string | null;
}

export type NewShareVisit = Omit<ShareVisitRecord, "id" | "visitorName"> & { visitorName?: string | null };

/** Rows of the visitor log each share keeps: the newest. */
export const VISITS_KEPT = 1000;

export interface ShareSettings {
  maxDays: number;
  allowNever: boolean;
}

export type ShareChanges = Partial<
  Pick<
    ShareRecord,
    | "title"
    | "message"
    | "expiresAt"
    | "passwordHash"
    | "viewLimit"
    | "downloadLimit"
    | "downloadPolicy"
    | "downloadPresetId"
    | "metadata"
    | "keepLocation"
  >
> & { drop?: Omit<ShareDrop, "files"> | null };

/** SQL of share links, their items and the administrator's limits. */
export class SharesRepository {
  constructor(
    private readonly kysely: Kysely<Database>,
    private readonly adapter: DialectAdapter,
  ) {}

  /** Stories shared by links made within [from, to): per story and maker, how many links (usage statistics). */
  async sharedStories(from: string, to: string): Promise<SharedStoryCount[]> {
    const rows = await this.kysely
      .selectFrom("share_items as i")
      .innerJoin("shares as s", "s.id", "i.share_id")
      .select((eb) => [
        "i.story_id as storyId",
        "i.library_id as libraryId",
        "s.created_by as createdBy",
        eb.fn.count<number>("i.share_id").distinct().as("shares"),
      ])
      .where("s.created_at", ">=", from)
      .where("s.created_at", "<", to)
      .groupBy(["i.story_id", "i.library_id", "s.created_by"])
      .execute();
    return rows.map((row) => ({ ...row, shares: Number(row.shares) }));
  }

  with(executor: Kysely<Database>): SharesRepository {
    return new SharesRepository(executor, this.adapter);
  }

  #toRecord(row: Selectable<SharesTable>): ShareRecord {
    return {
      id: row.id,
      tokenHash: row.token_hash,
      kind: row.kind,
      title: row.title,
      message: row.message,
      libraryId: row.library_id,
      folderId: row.folder_id,
      searchQuery: row.search_query === null ? null : this.adapter.readJson<Record<string, unknown>>(row.search_query),
      passwordHash: row.password_hash,
      expiresAt: row.expires_at,
      viewLimit: row.view_limit,
      downloadLimit: row.download_limit,
      views: Number(row.views),
      downloads: Number(row.downloads),
      downloadPolicy: row.download_policy,
      downloadPresetId: row.download_preset_id,
      metadata: row.metadata,
      keepLocation: this.adapter.readBoolean(row.keep_location),
      createdBy: row.created_by,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      revokedAt: row.revoked_at,
      lastVisitAt: row.last_visit_at,
      drop:
        row.drop_library_id && row.drop_folder_id
          ? {
              libraryId: row.drop_library_id,
              folderId: row.drop_folder_id,
              maxFiles: row.drop_max_files === null ? null : Number(row.drop_max_files),
              maxBytes: row.drop_max_bytes === null ? null : Number(row.drop_max_bytes),
              files: Number(row.drop_files),
            }
          : null,
    };
  }

  async add(share: NewShare, items: ShareItem[]): Promise<void> {
    await this.kysely
      .insertInto("shares")
      .values({
        id: share.id,
        token_hash: share.tokenHash,
        kind: share.kind,
        title: share.title,
        message: share.message,
        library_id: share.libraryId,
        folder_id: share.folderId,
        search_query: share.searchQuery === null ? null : this.adapter.writeJson(share.searchQuery),
        password_hash: share.passwordHash,
        expires_at: share.expiresAt,
        view_limit: share.viewLimit,
        download_limit: share.downloadLimit,
        download_policy: share.downloadPolicy,
        download_preset_id: share.downloadPresetId,
        metadata: share.metadata,
        keep_location: share.keepLocation,
        created_by: share.createdBy,
        created_at: share.createdAt,
        updated_at: share.createdAt,
        ...dropColumns(share.drop),
      })
      .execute();
    if (items.length > 0) {
      await this.kysely
        .insertInto("share_items")
        .values(
          items.map((item, position) => ({
            share_id: share.id,
            position,
            library_id: item.libraryId,
            story_id: item.storyId,
          })),
        )
        .execute();
    }
  }

  async byTokenHash(tokenHash: string): Promise<ShareRecord | undefined> {
    const row = await this.kysely
      .selectFrom("shares")
      .selectAll()
      .where("token_hash", "=", tokenHash)
      .executeTakeFirst();
    return row ? this.#toRecord(row) : undefined;
  }

  async byId(id: string): Promise<ShareRecord | undefined> {
    const row = await this.kysely.selectFrom("shares").selectAll().where("id", "=", id).executeTakeFirst();
    return row ? this.#toRecord(row) : undefined;
  }

  async items(shareId: string): Promise<ShareItem[]> {
    const rows = await this.kysely
      .selectFrom("share_items")
      .select(["library_id", "story_id"])
      .where("share_id", "=", shareId)
      .orderBy("position")
      .execute();
    return rows.map((row) => ({ libraryId: row.library_id, storyId: row.story_id }));
  }

  async itemCounts(shareIds: string[]): Promise<Map<string, number>> {
    if (shareIds.length === 0) return new Map();
    const rows = await this.kysely
      .selectFrom("share_items")
      .select((eb) => ["share_id", eb.fn.countAll<number>().as("count")])
      .where("share_id", "in", shareIds)
      .groupBy("share_id")
      .execute();
    return new Map(rows.map((row) => [row.share_id, Number(row.count)]));
  }

  /** A page of the shares `createdBy` made (every share when null), newest first, filtered by state and words. */
  async list(
    createdBy: string | null,
    page: { page: number; size: number; state?: ShareListState; keyword?: string; now: string },
  ): Promise<{ shares: ShareRecord[]; total: number }> {
    let query = this.kysely.selectFrom("shares");
    if (createdBy !== null) query = query.where("created_by", "=", createdBy);
    if (page.keyword) {
      const pattern = keywordPattern(page.keyword);
      query = query.where((eb) =>
        eb.or([eb(eb.fn("lower", ["title"]), "like", pattern), eb(eb.fn("lower", ["message"]), "like", pattern)]),
      );
    }
    if (page.state) query = query.where(stateFilter(page.state, page.now));
    const total = await query.select((eb) => eb.fn.countAll<number>().as("count")).executeTakeFirstOrThrow();
    const rows = await query
      .selectAll()
      .orderBy("created_at", "desc")
      .orderBy("id")
      .limit(page.size)
      .offset(page.page * page.size)
      .execute();
    return { shares: rows.map((row) => this.#toRecord(row)), total: Number(total.count) };
  }

  async update(id: string, changes: ShareChanges, at: string): Promise<void> {
    const values: Updateable<SharesTable> = { updated_at: at };
    if (changes.title !== undefined) values.title = changes.title;
    if (changes.message !== undefined) values.message = changes.message;
    if (changes.expiresAt !== undefined) values.expires_at = changes.expiresAt;
    if (changes.passwordHash !== undefined) values.password_hash = changes.passwordHash;
    if (changes.viewLimit !== undefined) values.view_limit = changes.viewLimit;
    if (changes.downloadLimit !== undefined) values.download_limit = changes.downloadLimit;
    if (changes.downloadPolicy !== undefined) values.download_policy = changes.downloadPolicy;
    if (changes.downloadPresetId !== undefined) values.download_preset_id = changes.downloadPresetId;
    if (changes.metadata !== undefined) values.metadata = changes.metadata;
    if (changes.keepLocation !== undefined) values.keep_location = changes.keepLocation;
    if (changes.drop !== undefined) Object.assign(values, dropColumns(changes.drop));
    await this.kysely.updateTable("shares").set(values).where("id", "=", id).execute();
  }

  async revoke(id: string, at: string): Promise<boolean> {
    const result = await this.kysely
      .updateTable("shares")
      .set({ revoked_at: at, updated_at: at })
      .where("id", "=", id)
      .where("revoked_at", "is", null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Counts a view unless the limit is reached; false when it is. */
  async countView(id: string, at: string): Promise<boolean> {
    const result = await this.kysely
      .updateTable("shares")
      .set((eb) => ({ views: eb("views", "+", 1), last_visit_at: at }))
      .where("id", "=", id)
      .where((eb) => eb.or([eb("view_limit", "is", null), eb("views", "<", eb.ref("view_limit"))]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Counts a download unless the limit is reached; false when it is. */
  async countDownload(id: string, at: string): Promise<boolean> {
    const result = await this.kysely
      .updateTable("shares")
      .set((eb) => ({ downloads: eb("downloads", "+", 1), last_visit_at: at }))
      .where("id", "=", id)
      .where((eb) => eb.or([eb("download_limit", "is", null), eb("downloads", "<", eb.ref("download_limit"))]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Counts a file dropped by a visitor unless the drop is full; false when it is. */
  async countDrop(id: string, at: string): Promise<boolean> {
    const result = await this.kysely
      .updateTable("shares")
      .set((eb) => ({ drop_files: eb("drop_files", "+", 1), last_visit_at: at }))
      .where("id", "=", id)
      .where("drop_folder_id", "is not", null)
      .where((eb) => eb.or([eb("drop_max_files", "is", null), eb("drop_files", "<", eb.ref("drop_max_files"))]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Adds a row to the share's visitor log, and drops its rows beyond the newest VISITS_KEPT. */
  async recordVisit(visit: NewShareVisit): Promise<void> {
    await this.kysely
      .insertInto("share_visits")
      .values({
        share_id: visit.shareId,
        at: visit.at,
        address: visit.address,
        action: visit.action,
        story_id: visit.storyId,
        user_agent: visit.userAgent,
        visitor_name: visit.visitorName ?? null,
      })
      .execute();
    const oldest = await this.kysely
      .selectFrom("share_visits")
      .select("id")
      .where("share_id", "=", visit.shareId)
      .orderBy("id", "desc")
      .limit(1)
      .offset(VISITS_KEPT)
      .executeTakeFirst();
    if (oldest) {
      await this.kysely
        .deleteFrom("share_visits")
        .where("share_id", "=", visit.shareId)
        .where("id", "<=", oldest.id)
        .execute();
    }
  }

  /** A page of a share's visitor log, newest first. */
  async visits(
    shareId: string,
    page: { page: number; size: number },
  ): Promise<{ visits: ShareVisitRecord[]; total: number }> {
    const query = this.kysely.selectFrom("share_visits").where("share_id", "=", shareId);
    const total = await query.select((eb) => eb.fn.countAll<number>().as("count")).executeTakeFirstOrThrow();
    const rows = await query
      .selectAll()
      .orderBy("id", "desc")
      .limit(page.size)
      .offset(page.page * page.size)
      .execute();
    const visits = rows.map((row) => ({
      id: Number(row.id),
      shareId: row.share_id,
      at: row.at,
      address: row.address,
      action: row.action,
      storyId: row.story_id,
      userAgent: row.user_agent,
      visitorName: row.visitor_name,
    }));
    return { visits, total: Number(total.count) };
  }

  async settings(): Promise<ShareSettings> {
    const row = await this.kysely
      .selectFrom("share_settings")
      .select(["max_days", "allow_never"])
      .where("id", "=", 1)
      .executeTakeFirst();
    return row
      ? { maxDays: Number(row.max_days), allowNever: this.adapter.readBoolean(row.allow_never) }
      : { maxDays: 90, allowNever: false };
  }

  async saveSettings(settings: ShareSettings, by: string, at: string): Promise<void> {
    await this.kysely
      .updateTable("share_settings")
      .set({ max_days: settings.maxDays, allow_never: settings.allowNever, updated_by: by, updated_at: at })
      .where("id", "=", 1)
      .execute();
  }
}

/** The drop's columns of `shares` (all null: no drop; the count of dropped files stays). */
function dropColumns(drop: Omit<ShareDrop, "files"> | null) {
  return {
    drop_library_id: drop?.libraryId ?? null,
    drop_folder_id: drop?.folderId ?? null,
    drop_max_files: drop?.maxFiles ?? null,
    drop_max_bytes: drop?.maxBytes ?? null,
  };
}

export type ShareListState = "active" | "expired" | "revoked" | "used-up";

/** A share's state as a condition, the same order as `shareState`: revoked, then expired, then used up. */
function stateFilter(state: ShareListState, now: string) {
  return (eb: ExpressionBuilder<Database, "shares">) => {
    const revoked = eb("revoked_at", "is not", null);
    const live = eb("revoked_at", "is", null);
    const expired = eb.and([eb("expires_at", "is not", null), eb("expires_at", "<=", now)]);
    const current = eb.or([eb("expires_at", "is", null), eb("expires_at", ">", now)]);
    const usedUp = eb.and([eb("view_limit", "is not", null), eb("views", ">=", eb.ref("view_limit"))]);
    const left = eb.or([eb("view_limit", "is", null), eb("views", "<", eb.ref("view_limit"))]);
    switch (state) {
      case "revoked":
        return revoked;
      case "expired":
        return eb.and([live, expired]);
      case "used-up":
        return eb.and([live, current, usedUp]);
      case "active":
        return eb.and([live, current, left]);
    }
  };
}
