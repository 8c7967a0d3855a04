import type { Actor } from "../auth/actor.js";
import type { DiskService } from "../disk/disk.service.js";
import type { DiskSharesService } from "../disk/disk-shares.service.js";
import type { StagedBytes } from "../ingest/ingest-source.js";

/** One item a WebDAV mount shows: a folder or a file. */
export interface DavEntry {
  id: string;
  kind: "folder" | "file";
  name: string;
  size: number;
  mime: string | null;
  createdAt: string | null;
  updatedAt: string | null;
}

/** What a path names in a mount: an entry, the mount's root (null), or nothing (undefined). */
export type Found = DavEntry | null | undefined;

/** A file's bytes as a mount serves them. */
export interface OpenedFile {
  key: string;
  fileName: string;
  contentType: string;
}

/**
 * What one WebDAV mount serves (docs/disk.md): the caller's own disk, what
 * colleagues shared with them, or the libraries they may read. DavService
 * speaks the protocol over it; every answer about who may do what comes
 * from the services behind the tree.
 */
export interface DavTree {
  /** Why every change is refused (403), when the mount is read-only. */
  readonly readOnly?: string;
  /** Why nothing may be created at the mount's top, when its top holds only what the mount puts there. */
  readonly fixedRoot?: string;
  find(actor: Actor, segments: readonly string[]): Promise<Found>;
  /** A folder's entries (the root's for null); `segments` is the folder's path. */
  list(actor: Actor, segments: readonly string[], folder: DavEntry | null): Promise<DavEntry[]>;
  /** A file's bytes; `counted` when the request reads it whole from its first byte (a download). */
  open(actor: Actor, segments: readonly string[], file: DavEntry, counted: boolean): Promise<OpenedFile>;
  // The changes: never asked of a read-only tree. A parent of null is the mount's root.
  /** Makes a folder; answers its id. */
  createFolder(actor: Actor, parentId: string | null, name: string): Promise<string>;
  storeFile(actor: Actor, parentId: string | null, name: string, bytes: StagedBytes): Promise<void>;
  move(actor: Actor, id: string, name: string, parentId: string | null): Promise<void>;
  trash(actor: Actor, id: string): Promise<void>;
  /** The space a write into this folder takes: its owner's usage and quota (403/404 when the caller may not write there). */
  room(actor: Actor, parentId: string | null): Promise<{ ownerId: string; usedBytes: number; quotaBytes: number }>;
  /** Refuses (the disk's 413, 507 here) when `extra` more bytes would pass the owner's quota. */
  checkQuota(ownerId: string, extra: number): Promise<void>;
}

type DiskCalls = Pick<
  DiskService,
  | "atPath"
  | "atPathFrom"
  | "list"
  | "createFolder"
  | "storeFile"
  | "update"
  | "trash"
  | "open"
  | "checkQuota"
  | "usage"
  | "writableFolder"
>;

/** The changes of both disk mounts: DiskService calls with the caller as actor (its access, quota, types, log). */
abstract class DiskTree implements DavTree {
  constructor(protected readonly disk: DiskCalls) {}

  abstract find(actor: Actor, segments: readonly string[]): Promise<Found>;
  abstract list(actor: Actor, segments: readonly string[], folder: DavEntry | null): Promise<DavEntry[]>;

  async open(actor: Actor, _segments: readonly string[], file: DavEntry): Promise<OpenedFile> {
    return this.disk.open(actor, file.id, "download");
  }

  async createFolder(actor: Actor, parentId: string | null, name: string): Promise<string> {
    return (await this.disk.createFolder(actor, { parentId, name })).id;
  }

  async storeFile(actor: Actor, parentId: string | null, name: string, bytes: StagedBytes): Promise<void> {
    await this.disk.storeFile(actor, parentId, { name, bytes }, "replace");
  }

  async move(actor: Actor, id: string, name: string, parentId: string | null): Promise<void> {
    await this.disk.update(actor, id, { name, parentId });
  }

  async trash(actor: Actor, id: string): Promise<void> {
    await this.disk.trash(actor, id);
  }

  async room(actor: Actor, parentId: string | null) {
    const { ownerId } = await this.disk.writableFolder(actor, parentId);
    return { ownerId, ...(await this.disk.usage(ownerId)) };
  }

  checkQuota(ownerId: string, extra: number): Promise<void> {
    return this.disk.checkQuota(ownerId, extra);
  }
}

/** `/dav/`: the caller's own disk, `/` their root and each segment one of their nodes. */
export class OwnDiskTree extends DiskTree {
  find(actor: Actor, segments: readonly string[]): Promise<Found> {
    return this.disk.atPath(actor, segments);
  }

  async list(actor: Actor, _segments: readonly string[], folder: DavEntry | null): Promise<DavEntry[]> {
    return (await this.disk.list(actor, folder?.id ?? null)).items;
  }
}

/**
 * `/dav-shared/`: what colleagues shared with the caller (DiskSharesService's
 * "shared with me"), each shared folder or file at the top under a name unique
 * there; below it, the owner's nodes. The level is the share's, checked by
 * DiskService on every call: view and download read, edit also writes (into
 * the owner's space, under the owner's quota).
 */
export class SharedDiskTree extends DiskTree {
  readonly fixedRoot = 'the top of "shared with me" holds what colleagues shared: write into a shared folder';

  constructor(
    disk: DiskCalls,
    private readonly shares: Pick<DiskSharesService, "sharedWithMe">,
  ) {
    super(disk);
  }

  /** The shared nodes by the name they have at the top. */
  async #top(actor: Actor): Promise<Map<string, DavEntry>> {
    const shared = await this.shares.sharedWithMe(actor);
    const counts = new Map<string, number>();
    for (const item of shared) counts.set(item.node.name, (counts.get(item.node.name) ?? 0) + 1);
    const top = new Map<string, DavEntry>();
    // Sorted by id, so the names do not depend on the order the shares come in.
    for (const item of [...shared].sort((a, b) => a.node.id.localeCompare(b.node.id))) {
      const { node } = item;
      let name = node.name;
      if ((counts.get(node.name) ?? 0) > 1) name = withSuffix(node.name, node.kind, item.ownerName);
      if (top.has(name)) name = withSuffix(node.name, node.kind, `${item.ownerName} ${node.id.slice(0, 8)}`);
      top.set(name, { ...node, name });
    }
    return top;
  }

  async find(actor: Actor, segments: readonly string[]): Promise<Found> {
    const [first, ...rest] = segments;
    if (first === undefined) return null;
    const top = (await this.#top(actor)).get(first.normalize("NFC"));
    if (!top) return undefined;
    if (rest.length === 0) return top;
    return this.disk.atPathFrom(actor, top.id, rest);
  }

  async list(actor: Actor, _segments: readonly string[], folder: DavEntry | null): Promise<DavEntry[]> {
    if (folder === null) return [...(await this.#top(actor)).values()];
    return (await this.disk.list(actor, folder.id)).items;
  }
}

/** `report.pdf` + `alice` → `report (alice).pdf`; a folder's name takes the suffix at its end. */
export function withSuffix(name: string, kind: "folder" | "file", suffix: string): string {
  const dot = kind === "file" ? name.lastIndexOf(".") : -1;
  if (dot <= 0) return `${name} (${suffix})`;
  return `${name.slice(0, dot)} (${suffix})${name.slice(dot)}`;
}
