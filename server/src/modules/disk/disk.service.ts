import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import { AppError, Conflict, Forbidden, Invalid, NotFound } from "../../http/errors.js";
import type { SniffedType } from "../../media/sniff.js";
import type { AuditLog } from "../audit/audit-log.js";
import type { Actor } from "../auth/actor.js";
import type { BlobStore } from "../blobs/blob-store.js";
import type { StagedBytes } from "../ingest/ingest-source.js";
import type { DiskNode, DiskRepository, Grantee } from "./disk.repository.js";
import { type Accessed, type DiskAccess, type DiskAccessLevel, missing } from "./disk-access.js";
import { diskName, numberedName } from "./disk-names.js";

export const DAY_MS = 86_400_000;
/** How long deleted items stay in the trash before the maintenance job purges them. */
export const TRASH_DAYS = 30;
/** A user's quota when an administrator has set none: 10 GiB. */
export const DEFAULT_QUOTA_BYTES = 10 * 1024 ** 3;
/** Where the disk's bytes live in the BlobStore; the disk's own sweeper looks only here. */
export const DISK_PREFIX = "disk/";

export function newDiskKey(): string {
  const id = randomUUID();
  return `${DISK_PREFIX}${id.slice(0, 2)}/${id.slice(2, 4)}/${id}`;
}

/** The disk is full: 413, nothing of the file kept. */
export class DiskQuotaExceeded extends AppError {
  constructor(used: number, quota: number, size: number) {
    super(
      413,
      "disk_quota_exceeded",
      `the disk quota is exceeded: ${used} of ${quota} bytes are used and this file needs ${size} more`,
    );
    this.withMessageCode("disk.quotaExceeded", { used, quota, size });
  }
}

export interface DiskNodeView {
  id: string;
  parentId: string | null;
  kind: "folder" | "file";
  name: string;
  size: number;
  mime: string | null;
  ownerId: string;
  createdAt: string;
  updatedAt: string;
  trashedAt: string | null;
  /** What the caller may do with it. */
  access: DiskAccessLevel;
}

export function nodeView(node: DiskNode, access: DiskAccessLevel): DiskNodeView {
  return {
    id: node.id,
    parentId: node.parentId,
    kind: node.kind,
    name: node.name,
    size: node.size,
    mime: node.mime,
    ownerId: node.ownerId,
    createdAt: node.createdAt,
    updatedAt: node.updatedAt,
    trashedAt: node.trashedAt,
    access,
  };
}

/** Bytes to store, and their type by content (application/octet-stream outside the media allow-list). */
export interface IncomingFile {
  bytes: StagedBytes;
  name: string;
}

export interface DiskDependencies {
  nodes: DiskRepository;
  access: DiskAccess;
  blobs: BlobStore;
  audit: AuditLog;
  clock?: () => Date;
  onBlobDeleteError?: (key: string, error: unknown) => void;
}

export function granteeOf(actor: Pick<Actor, "id" | "roleId">): Grantee {
  return { userId: actor.id, roleId: actor.roleId };
}

/**
 * A user's network disk: a folder tree of their own, files whose bytes live
 * in the BlobStore under disk/, a trash kept TRASH_DAYS, a quota. Shared
 * nodes are reached through DiskAccess, which every call asks first.
 */
export class DiskService {
  constructor(private readonly deps: DiskDependencies) {}

  #now(): string {
    return (this.deps.clock?.() ?? new Date()).toISOString();
  }

  async #deleteBlobs(keys: (string | null)[]): Promise<void> {
    await Promise.all(
      keys
        .filter((key): key is string => Boolean(key))
        .map((key) => this.deps.blobs.delete(key).catch((error: unknown) => this.deps.onBlobDeleteError?.(key, error))),
    );
  }

  async quotaOf(userId: string, executor?: Kysely<Database>): Promise<number> {
    return (await this.deps.nodes.quota(userId, executor)) ?? DEFAULT_QUOTA_BYTES;
  }

  async usage(userId: string): Promise<{ usedBytes: number; quotaBytes: number }> {
    return { usedBytes: await this.deps.nodes.usage(userId), quotaBytes: await this.quotaOf(userId) };
  }

  async setQuota(actor: Actor, userId: string, quotaBytes: number): Promise<{ usedBytes: number; quotaBytes: number }> {
    await this.deps.nodes.transaction(async (trx) => {
      await this.deps.nodes.setQuota(userId, quotaBytes, actor.username, this.#now(), trx);
      await this.deps.audit.record(trx, actor, {
        action: "disk.quota-set",
        target: { type: "user", id: userId },
        after: { quotaBytes },
      });
    });
    return this.usage(userId);
  }

  /** 413 when `extra` more bytes of `ownerId` would pass their quota (inside a transaction: pass it, SQLite has one connection). */
  async checkQuota(ownerId: string, extra: number, executor?: Kysely<Database>): Promise<void> {
    const used = await this.deps.nodes.usage(ownerId, executor);
    const quota = await this.quotaOf(ownerId, executor);
    if (used + extra > quota) throw new DiskQuotaExceeded(used, quota, extra);
  }

  /** A folder the caller may write into (their root when null): its owner is whose space it takes. */
  async writableFolder(actor: Actor, parentId: string | null): Promise<{ ownerId: string; parentId: string | null }> {
    if (parentId === null) return { ownerId: actor.id, parentId: null };
    const { node } = await this.deps.access.require(granteeOf(actor), parentId, "edit");
    if (node.kind !== "folder") throw new Invalid("parentId: not a folder", "not_a_folder");
    return { ownerId: node.ownerId, parentId: node.id };
  }

  async get(actor: Actor, id: string): Promise<Accessed> {
    return this.deps.access.resolve(granteeOf(actor), id);
  }

  async require(actor: Actor, id: string, level: DiskAccessLevel): Promise<Accessed> {
    return this.deps.access.require(granteeOf(actor), id, level);
  }

  /**
   * The caller's own node at a path of names from their root (WebDAV): null
   * for the root itself, undefined when nothing lives there. Only live nodes
   * of the caller's own disk; a name is one segment, so no path leaves it.
   */
  async atPath(actor: Actor, names: readonly string[]): Promise<DiskNodeView | null | undefined> {
    let node: DiskNode | undefined;
    for (const name of names) {
      node = await this.deps.nodes.named(actor.id, node?.id ?? null, name.normalize("NFC"));
      if (!node) return undefined;
    }
    return node ? nodeView(node, "owner") : null;
  }

  /**
   * The node at a path of names below a node the caller may reach, the start
   * itself for no names (WebDAV's "shared with me"): undefined without access
   * or when nothing lives there. Its level is the start's; each change asks
   * DiskAccess again.
   */
  async atPathFrom(actor: Actor, startId: string, names: readonly string[]): Promise<DiskNodeView | undefined> {
    const start = await this.get(actor, startId).catch((error: unknown) => {
      if (error instanceof NotFound) return undefined;
      throw error;
    });
    if (!start) return undefined;
    let node = start.node;
    for (const name of names) {
      if (node.kind !== "folder") return undefined;
      const child = await this.deps.nodes.named(node.ownerId, node.id, name.normalize("NFC"));
      if (!child) return undefined;
      node = child;
    }
    return nodeView(node, start.level);
  }

  /** A folder's contents (the caller's root without an id) and the way up to it. */
  async list(
    actor: Actor,
    folderId: string | null,
  ): Promise<{ folder: DiskNodeView | null; path: { id: string; name: string }[]; items: DiskNodeView[] }> {
    if (folderId === null) {
      const items = await this.deps.nodes.children(actor.id, null);
      return { folder: null, path: [], items: items.map((item) => nodeView(item, "owner")) };
    }
    const { node, level, ancestors } = await this.get(actor, folderId);
    if (node.kind !== "folder") throw new Invalid("folderId: not a folder", "not_a_folder");
    const items = await this.deps.nodes.children(node.ownerId, node.id);
    return {
      folder: nodeView(node, level),
      path: [...ancestors, node].map((item) => ({ id: item.id, name: item.name })),
      items: items.map((item) => nodeView(item, level)),
    };
  }

  async createFolder(actor: Actor, input: { parentId: string | null; name: string }): Promise<DiskNodeView> {
    const name = diskName(input.name);
    const target = await this.writableFolder(actor, input.parentId);
    const now = this.#now();
    const node: DiskNode = {
      id: randomUUID(),
      ownerId: target.ownerId,
      parentId: target.parentId,
      kind: "folder",
      name,
      blobKey: null,
      size: 0,
      mime: null,
      sha256: null,
      createdAt: now,
      updatedAt: now,
      trashedAt: null,
      trashRoot: false,
    };
    await this.deps.nodes.transaction(async (trx) => {
      if (await this.deps.nodes.named(target.ownerId, target.parentId, name, trx)) throw nameTaken(name);
      await this.deps.nodes.insert(node, trx);
      await this.deps.audit.record(trx, actor, { action: "disk.folder-create", target: diskTarget(node) });
    });
    return nodeView(node, node.ownerId === actor.id ? "owner" : "edit");
  }

  /**
   * Stores a file in a folder the caller may write: its type by content, its
   * SHA-256, the bytes moved into the blob store, then the row in one
   * transaction that checks the owner's quota again (413, and the bytes are
   * deleted). A name taken by a file is replaced (`replace`, WebDAV PUT) or
   * numbered (`rename`, uploads).
   */
  async storeFile(
    actor: Actor,
    parentId: string | null,
    file: IncomingFile,
    onConflict: "rename" | "replace",
  ): Promise<{ node: DiskNodeView; created: boolean }> {
    const name = diskName(file.name);
    const target = await this.writableFolder(actor, parentId);
    const size = await file.bytes.size();
    const existing = await this.deps.nodes.named(target.ownerId, target.parentId, name);
    if (existing?.kind === "folder" && onConflict === "replace") throw nameTaken(name);
    const replaced = onConflict === "replace" ? existing : undefined;
    await this.checkQuota(target.ownerId, size - (replaced?.size ?? 0));
    const mime = await mimeByContent(file.bytes);
    const sha256 = await file.bytes.sha256();
    const key = newDiskKey();
    await file.bytes.moveInto(key, mime);
    const now = this.#now();
    let stored: DiskNode | undefined;
    let oldKey: string | null = null;
    try {
      stored = await this.deps.nodes.transaction(async (trx) => {
        await this.deps.nodes.lockOwner(trx, target.ownerId);
        const current = await this.deps.nodes.named(target.ownerId, target.parentId, name, trx);
        if (current?.kind === "file" && onConflict === "replace") {
          await this.checkQuota(target.ownerId, size - current.size, trx);
          await this.deps.nodes.update(current.id, { blobKey: key, size, mime, sha256, updatedAt: now }, trx);
          oldKey = current.blobKey;
          const node = { ...current, blobKey: key, size, mime, sha256, updatedAt: now };
          await this.deps.audit.record(trx, actor, {
            action: "disk.file-replace",
            target: diskTarget(node),
            details: { size, mime },
          });
          return node;
        }
        if (current?.kind === "folder" && onConflict === "replace") throw nameTaken(name);
        await this.checkQuota(target.ownerId, size, trx);
        const node: DiskNode = {
          id: randomUUID(),
          ownerId: target.ownerId,
          parentId: target.parentId,
          kind: "file",
          name: current ? await this.#freeName(target.ownerId, target.parentId, name, trx) : name,
          blobKey: key,
          size,
          mime,
          sha256,
          createdAt: now,
          updatedAt: now,
          trashedAt: null,
          trashRoot: false,
        };
        await this.deps.nodes.insert(node, trx);
        await this.deps.audit.record(trx, actor, {
          action: "disk.file-create",
          target: diskTarget(node),
          details: { size, mime },
        });
        return node;
      });
    } catch (error) {
      await this.#deleteBlobs([key]);
      throw error;
    }
    await this.#deleteBlobs([oldKey]);
    return { node: nodeView(stored, stored.ownerId === actor.id ? "owner" : "edit"), created: oldKey === null };
  }

  async #freeName(ownerId: string, parentId: string | null, name: string, trx: Kysely<Database>): Promise<string> {
    for (let n = 2; n < 10_000; n++) {
      const candidate = numberedName(name, n);
      if (!(await this.deps.nodes.named(ownerId, parentId, candidate, trx))) return candidate;
    }
    throw nameTaken(name);
  }

  /** Renames and/or moves a node within its owner's disk. */
  async update(actor: Actor, id: string, input: { name?: string; parentId?: string | null }): Promise<DiskNodeView> {
    const { node, level } = await this.require(actor, id, "edit");
    const name = input.name === undefined ? node.name : diskName(input.name);
    let parentId = node.parentId;
    if (input.parentId !== undefined && input.parentId !== node.parentId) {
      if (input.parentId === null) {
        if (node.ownerId !== actor.id) throw new Forbidden("parentId: only the owner moves an item to their root");
      } else {
        const target = await this.writableFolder(actor, input.parentId);
        if (target.ownerId !== node.ownerId) throw new Invalid("parentId: items move within one disk", "other_disk");
        const below = await this.deps.nodes.subtree(node.id);
        if (below.some((item) => item.id === input.parentId))
          throw new Invalid("parentId: a folder cannot move into itself", "move_into_self");
      }
      parentId = input.parentId;
    }
    const updated = { ...node, name, parentId, updatedAt: this.#now() };
    await this.deps.nodes.transaction(async (trx) => {
      const other = await this.deps.nodes.named(node.ownerId, parentId, name, trx);
      if (other && other.id !== node.id) throw nameTaken(name);
      await this.deps.nodes.update(node.id, { name, parentId, updatedAt: updated.updatedAt }, trx);
      await this.deps.audit.record(trx, actor, {
        action: parentId === node.parentId ? "disk.rename" : "disk.move",
        target: diskTarget(updated),
        before: { name: node.name, parentId: node.parentId },
        after: { name, parentId },
      });
    });
    return nodeView(updated, level);
  }

  /** Moves a node and everything under it into its owner's trash. */
  async trash(actor: Actor, id: string): Promise<void> {
    const { node } = await this.require(actor, id, "edit");
    const subtree = await this.deps.nodes.subtree(node.id);
    const live = subtree.filter((item) => item.id === node.id || !item.trashedAt).map((item) => item.id);
    await this.deps.nodes.transaction(async (trx) => {
      await this.deps.nodes.setTrashed(live, node.id, this.#now(), trx);
      await this.deps.audit.record(trx, actor, { action: "disk.trash", target: diskTarget(node) });
    });
  }

  async listTrash(actor: Actor): Promise<DiskNodeView[]> {
    return (await this.deps.nodes.trash(actor.id)).map((node) => nodeView(node, "owner"));
  }

  async #trashed(actor: Actor, id: string): Promise<DiskNode> {
    const node = await this.deps.nodes.find(id);
    if (!node || node.ownerId !== actor.id || !node.trashRoot || !node.trashedAt) throw missing(id);
    return node;
  }

  /** Takes a node out of the trash, into its folder (or the root when that is gone); a taken name is numbered. */
  async restore(actor: Actor, id: string): Promise<DiskNodeView> {
    const node = await this.#trashed(actor, id);
    const parent = node.parentId ? await this.deps.nodes.find(node.parentId) : undefined;
    const parentId = parent && !parent.trashedAt ? parent.id : null;
    const subtree = await this.deps.nodes.subtree(node.id);
    const together = subtree.filter((item) => item.trashedAt === node.trashedAt).map((item) => item.id);
    const restored = await this.deps.nodes.transaction(async (trx) => {
      const taken = await this.deps.nodes.named(node.ownerId, parentId, node.name, trx);
      const name = taken ? await this.#freeName(node.ownerId, parentId, node.name, trx) : node.name;
      await this.deps.nodes.setTrashed(together, node.id, null, trx);
      await this.deps.nodes.update(node.id, { name, parentId, updatedAt: this.#now() }, trx);
      await this.deps.audit.record(trx, actor, { action: "disk.restore", target: diskTarget(node) });
      return { ...node, name, parentId, trashedAt: null, trashRoot: false };
    });
    return nodeView(restored, "owner");
  }

  /** Deletes a trashed node for good, with its bytes. */
  async purge(actor: Actor, id: string): Promise<void> {
    const node = await this.#trashed(actor, id);
    await this.#purge(actor, node);
  }

  async #purge(actor: Actor | null, node: DiskNode): Promise<void> {
    const subtree = await this.deps.nodes.subtree(node.id);
    await this.deps.nodes.transaction(async (trx) => {
      await this.deps.nodes.deleteMany(
        subtree.map((item) => item.id),
        trx,
      );
      await this.deps.audit.record(trx, actor, {
        action: "disk.purge",
        target: diskTarget(node),
        details: { items: subtree.length },
      });
    });
    await this.#deleteBlobs(subtree.map((item) => item.blobKey));
  }

  /** For the maintenance job: purges what has been in the trash longer than TRASH_DAYS; returns how many. */
  async purgeExpiredTrash(now = new Date()): Promise<number> {
    const cutoff = new Date(now.getTime() - TRASH_DAYS * DAY_MS).toISOString();
    let purged = 0;
    for (;;) {
      const batch = await this.deps.nodes.trashedBefore(cutoff, 100);
      for (const node of batch) await this.#purge(null, node);
      purged += batch.length;
      if (batch.length < 100) return purged;
    }
  }

  /** For the maintenance job: bytes under disk/ that no node holds (a crash between store and row), older than a day. */
  async sweepOrphans(now = new Date(), graceMs = DAY_MS): Promise<string[]> {
    const deleted: string[] = [];
    const judge = async (keys: string[]) => {
      const held = await this.deps.nodes.heldBlobKeys(keys);
      for (const key of keys) {
        if (held.has(key)) continue;
        const stat = await this.deps.blobs.stat(key);
        if (!stat?.modifiedAt || stat.modifiedAt.getTime() > now.getTime() - graceMs) continue;
        await this.deps.blobs.delete(key);
        deleted.push(key);
      }
    };
    let batch: string[] = [];
    for await (const key of this.deps.blobs.list(DISK_PREFIX)) {
      batch.push(key);
      if (batch.length === 500) {
        await judge(batch);
        batch = [];
      }
    }
    await judge(batch);
    return deleted;
  }

  /** A file's bytes for a preview (view) or a download (download), recorded in the operation log. */
  async open(
    actor: Actor,
    id: string,
    purpose: "preview" | "download",
  ): Promise<{ key: string; fileName: string; contentType: string }> {
    const { node } = await this.require(actor, id, purpose === "preview" ? "view" : "download");
    if (node.kind !== "file" || !node.blobKey) throw new Invalid("id: not a file", "not_a_file");
    if (purpose === "download") {
      await this.deps.audit.recordEvent(actor, { action: "disk.download", target: diskTarget(node) });
    }
    return { key: node.blobKey, fileName: node.name, contentType: node.mime ?? "application/octet-stream" };
  }
}

export function diskTarget(node: Pick<DiskNode, "id" | "name">): { type: string; id: string; label: string } {
  return { type: "disk-item", id: node.id, label: node.name };
}

function nameTaken(name: string): Conflict {
  return new Conflict(`name: "${name}" is taken in this folder`, "name_taken");
}

/** The type by the first bytes; anything outside the media allow-list is kept as application/octet-stream. */
async function mimeByContent(bytes: StagedBytes): Promise<string> {
  let content: SniffedType | undefined;
  try {
    content = await bytes.sniff();
  } catch (error) {
    if (error instanceof AppError && error.status === 415) return "application/octet-stream";
    throw error;
  }
  return content.mime;
}
