import { type Kysely, sql } from "kysely";
import type { Db } from "../../db/database.js";
import type { Database } from "../../db/schema.js";

export type DiskNodeKind = "folder" | "file";
export type ShareLevel = "view" | "download" | "edit";
export type GranteeKind = "user" | "role" | "everyone";

export interface DiskNode {
  id: string;
  ownerId: string;
  parentId: string | null;
  kind: DiskNodeKind;
  name: string;
  blobKey: string | null;
  size: number;
  mime: string | null;
  sha256: string | null;
  createdAt: string;
  updatedAt: string;
  trashedAt: string | null;
  trashRoot: boolean;
}

export interface DiskShare {
  id: string;
  nodeId: string;
  ownerId: string;
  granteeKind: GranteeKind;
  granteeId: string;
  level: ShareLevel;
  createdAt: string;
}

/** Who a share may name: the user, their role and everyone. */
export interface Grantee {
  userId: string;
  roleId: string | null;
}

type Executor = Kysely<Database>;

/** SQL of the network disk's tables (disk_nodes, disk_quotas, disk_shares), nothing else. */
export class DiskRepository {
  constructor(private readonly db: Db) {}

  get kysely(): Kysely<Database> {
    return this.db.kysely;
  }

  transaction<T>(work: (trx: Executor) => Promise<T>): Promise<T> {
    return this.db.kysely.transaction().execute(work);
  }

  /** Serialises quota checks of one owner (PostgreSQL; SQLite has one writer at a time). */
  async lockOwner(trx: Executor, ownerId: string): Promise<void> {
    if (this.db.adapter.name === "postgres") await sql`select pg_advisory_xact_lock(hashtext(${ownerId}))`.execute(trx);
  }

  #node = (row: Record<string, unknown>): DiskNode => ({
    id: row.id as string,
    ownerId: row.owner_id as string,
    parentId: (row.parent_id as string | null) ?? null,
    kind: row.kind as DiskNodeKind,
    name: row.name as string,
    blobKey: (row.blob_key as string | null) ?? null,
    size: Number(row.size),
    mime: (row.mime as string | null) ?? null,
    sha256: (row.sha256 as string | null) ?? null,
    createdAt: row.created_at as string,
    updatedAt: row.updated_at as string,
    trashedAt: (row.trashed_at as string | null) ?? null,
    trashRoot: this.db.adapter.readBoolean(row.trash_root),
  });

  async insert(node: DiskNode, executor: Executor = this.db.kysely): Promise<void> {
    await executor
      .insertInto("disk_nodes")
      .values({
        id: node.id,
        owner_id: node.ownerId,
        parent_id: node.parentId,
        kind: node.kind,
        name: node.name,
        blob_key: node.blobKey,
        size: node.size,
        mime: node.mime,
        sha256: node.sha256,
        created_at: node.createdAt,
        updated_at: node.updatedAt,
        trashed_at: node.trashedAt,
        trash_root: node.trashRoot,
      })
      .execute();
  }

  async find(id: string, executor: Executor = this.db.kysely): Promise<DiskNode | undefined> {
    const row = await executor.selectFrom("disk_nodes").selectAll().where("id", "=", id).executeTakeFirst();
    return row ? this.#node(row) : undefined;
  }

  async findMany(ids: string[]): Promise<DiskNode[]> {
    if (ids.length === 0) return [];
    const rows = await this.db.kysely.selectFrom("disk_nodes").selectAll().where("id", "in", ids).execute();
    return rows.map(this.#node);
  }

  /** The live children of a folder (or of the owner's root), folders first, by name. */
  async children(ownerId: string, parentId: string | null, executor: Executor = this.db.kysely): Promise<DiskNode[]> {
    let query = executor.selectFrom("disk_nodes").selectAll().where("owner_id", "=", ownerId);
    query = parentId === null ? query.where("parent_id", "is", null) : query.where("parent_id", "=", parentId);
    const rows = await query.where("trashed_at", "is", null).orderBy("kind", "desc").orderBy("name").execute();
    return rows.map(this.#node);
  }

  /** The live node of this name in a folder (or the root), if any. */
  async named(
    ownerId: string,
    parentId: string | null,
    name: string,
    executor: Executor = this.db.kysely,
  ): Promise<DiskNode | undefined> {
    let query = executor
      .selectFrom("disk_nodes")
      .selectAll()
      .where("owner_id", "=", ownerId)
      .where("name", "=", name)
      .where("trashed_at", "is", null);
    query = parentId === null ? query.where("parent_id", "is", null) : query.where("parent_id", "=", parentId);
    const row = await query.executeTakeFirst();
    return row ? this.#node(row) : undefined;
  }

  /** A node and everything under it (trashed or not), the node first. */
  async subtree(id: string, executor: Executor = this.db.kysely): Promise<DiskNode[]> {
    const first = await this.find(id, executor);
    if (!first) return [];
    const found = [first];
    let level = [first.id];
    while (level.length > 0) {
      const rows = await executor.selectFrom("disk_nodes").selectAll().where("parent_id", "in", level).execute();
      const nodes = rows.map(this.#node);
      found.push(...nodes);
      level = nodes.filter((node) => node.kind === "folder").map((node) => node.id);
    }
    return found;
  }

  async update(
    id: string,
    changes: Partial<Pick<DiskNode, "name" | "parentId" | "blobKey" | "size" | "mime" | "sha256" | "updatedAt">>,
    executor: Executor = this.db.kysely,
  ): Promise<void> {
    await executor
      .updateTable("disk_nodes")
      .set({
        ...(changes.name !== undefined ? { name: changes.name } : {}),
        ...(changes.parentId !== undefined ? { parent_id: changes.parentId } : {}),
        ...(changes.blobKey !== undefined ? { blob_key: changes.blobKey } : {}),
        ...(changes.size !== undefined ? { size: changes.size } : {}),
        ...(changes.mime !== undefined ? { mime: changes.mime } : {}),
        ...(changes.sha256 !== undefined ? { sha256: changes.sha256 } : {}),
        ...(changes.updatedAt !== undefined ? { updated_at: changes.updatedAt } : {}),
      })
      .where("id", "=", id)
      .execute();
  }

  /** Puts nodes in the trash (trashedAt set) or takes them out (null); `rootId` is the one the user chose. */
  async setTrashed(ids: string[], rootId: string, trashedAt: string | null, executor: Executor): Promise<void> {
    if (ids.length === 0) return;
    await executor
      .updateTable("disk_nodes")
      .set({ trashed_at: trashedAt, trash_root: false })
      .where("id", "in", ids)
      .execute();
    if (trashedAt)
      await executor.updateTable("disk_nodes").set({ trash_root: true }).where("id", "=", rootId).execute();
  }

  /** The owner's trash: the nodes they deleted, newest first. */
  async trash(ownerId: string): Promise<DiskNode[]> {
    const rows = await this.db.kysely
      .selectFrom("disk_nodes")
      .selectAll()
      .where("owner_id", "=", ownerId)
      .where("trash_root", "=", true)
      .where("trashed_at", "is not", null)
      .orderBy("trashed_at", "desc")
      .execute();
    return rows.map(this.#node);
  }

  /** Trash roots of every owner deleted before `cutoff`. */
  async trashedBefore(cutoff: string, limit: number): Promise<DiskNode[]> {
    const rows = await this.db.kysely
      .selectFrom("disk_nodes")
      .selectAll()
      .where("trash_root", "=", true)
      .where("trashed_at", "<", cutoff)
      .orderBy("trashed_at")
      .limit(limit)
      .execute();
    return rows.map(this.#node);
  }

  async deleteMany(ids: string[], executor: Executor): Promise<void> {
    if (ids.length === 0) return;
    await executor.deleteFrom("disk_nodes").where("id", "in", ids).execute();
  }

  /** Bytes of the owner's files, the trash included (its bytes are still stored). */
  async usage(ownerId: string, executor: Executor = this.db.kysely): Promise<number> {
    const row = await executor
      .selectFrom("disk_nodes")
      .select((eb) => eb.fn.sum<number | string | null>("size").as("used"))
      .where("owner_id", "=", ownerId)
      .where("kind", "=", "file")
      .executeTakeFirst();
    return Number(row?.used ?? 0);
  }

  /** Which of these blob keys a disk file holds (for the sweeper). */
  async heldBlobKeys(keys: string[]): Promise<Set<string>> {
    if (keys.length === 0) return new Set();
    const rows = await this.db.kysely
      .selectFrom("disk_nodes")
      .select("blob_key")
      .where("blob_key", "in", keys)
      .execute();
    return new Set(rows.map((row) => row.blob_key as string));
  }

  async quota(userId: string, executor: Executor = this.db.kysely): Promise<number | undefined> {
    const row = await executor
      .selectFrom("disk_quotas")
      .select("quota_bytes")
      .where("user_id", "=", userId)
      .executeTakeFirst();
    return row ? Number(row.quota_bytes) : undefined;
  }

  async setQuota(userId: string, quotaBytes: number, by: string, at: string, executor: Executor): Promise<void> {
    await executor
      .insertInto("disk_quotas")
      .values({ user_id: userId, quota_bytes: quotaBytes, updated_by: by, updated_at: at })
      .onConflict((conflict) =>
        conflict.column("user_id").doUpdateSet({ quota_bytes: quotaBytes, updated_by: by, updated_at: at }),
      )
      .execute();
  }

  #share = (row: Record<string, unknown>): DiskShare => ({
    id: row.id as string,
    nodeId: row.node_id as string,
    ownerId: row.owner_id as string,
    granteeKind: row.grantee_kind as GranteeKind,
    granteeId: row.grantee_id as string,
    level: row.level as ShareLevel,
    createdAt: row.created_at as string,
  });

  /** Adds a share, or changes the level of the same grantee's share of the node. */
  async upsertShare(share: DiskShare, executor: Executor): Promise<DiskShare> {
    await executor
      .insertInto("disk_shares")
      .values({
        id: share.id,
        node_id: share.nodeId,
        owner_id: share.ownerId,
        grantee_kind: share.granteeKind,
        grantee_id: share.granteeId,
        level: share.level,
        created_at: share.createdAt,
      })
      .onConflict((conflict) =>
        conflict.columns(["node_id", "grantee_kind", "grantee_id"]).doUpdateSet({ level: share.level }),
      )
      .execute();
    const row = await executor
      .selectFrom("disk_shares")
      .selectAll()
      .where("node_id", "=", share.nodeId)
      .where("grantee_kind", "=", share.granteeKind)
      .where("grantee_id", "=", share.granteeId)
      .executeTakeFirstOrThrow();
    return this.#share(row);
  }

  async findShare(id: string): Promise<DiskShare | undefined> {
    const row = await this.db.kysely.selectFrom("disk_shares").selectAll().where("id", "=", id).executeTakeFirst();
    return row ? this.#share(row) : undefined;
  }

  async deleteShare(id: string, executor: Executor): Promise<void> {
    await executor.deleteFrom("disk_shares").where("id", "=", id).execute();
  }

  async sharesByOwner(ownerId: string): Promise<DiskShare[]> {
    const rows = await this.db.kysely
      .selectFrom("disk_shares")
      .selectAll()
      .where("owner_id", "=", ownerId)
      .orderBy("created_at", "desc")
      .execute();
    return rows.map(this.#share);
  }

  async sharesOfNode(nodeId: string): Promise<DiskShare[]> {
    const rows = await this.db.kysely
      .selectFrom("disk_shares")
      .selectAll()
      .where("node_id", "=", nodeId)
      .orderBy("created_at")
      .execute();
    return rows.map(this.#share);
  }

  /** Shares naming this user, their role or everyone; on `nodeIds` only when given. */
  async sharesFor(grantee: Grantee, nodeIds?: string[]): Promise<DiskShare[]> {
    if (nodeIds && nodeIds.length === 0) return [];
    let query = this.db.kysely
      .selectFrom("disk_shares")
      .selectAll()
      .where("owner_id", "!=", grantee.userId)
      .where((eb) =>
        eb.or([
          eb.and([eb("grantee_kind", "=", "user"), eb("grantee_id", "=", grantee.userId)]),
          eb.and([eb("grantee_kind", "=", "role"), eb("grantee_id", "=", grantee.roleId ?? "")]),
          eb("grantee_kind", "=", "everyone"),
        ]),
      );
    if (nodeIds) query = query.where("node_id", "in", nodeIds);
    const rows = await query.orderBy("created_at", "desc").execute();
    return rows.map(this.#share);
  }
}
