import { Forbidden, NotFound } from "../../http/errors.js";
import type { DiskNode, DiskRepository, Grantee, ShareLevel } from "./disk.repository.js";

/** What a caller may do with a node: everything (their own), or what a share gives. */
export type DiskAccessLevel = "owner" | ShareLevel;

const RANK: Record<DiskAccessLevel, number> = { view: 1, download: 2, edit: 3, owner: 4 };

export function atLeast(level: DiskAccessLevel, wanted: DiskAccessLevel): boolean {
  return RANK[level] >= RANK[wanted];
}

export interface Accessed {
  node: DiskNode;
  level: DiskAccessLevel;
  /** From the top the caller may reach (their root, or the shared node) down to the node's parent. */
  ancestors: DiskNode[];
}

export function missing(id: string): NotFound {
  return new NotFound(`disk item ${id} does not exist`, "disk_item_not_found");
}

/**
 * The one answer to "may this caller reach this disk node, and how far":
 * their own nodes fully; someone else's through a share on the node or on a
 * folder above it (never on a sibling or parent of the shared node); a
 * trashed node nobody but its owner's trash page. No access answers 404,
 * like a node that does not exist.
 */
export class DiskAccess {
  constructor(private readonly nodes: DiskRepository) {}

  async resolve(who: Grantee, id: string): Promise<Accessed> {
    const node = await this.nodes.find(id);
    if (!node || node.trashedAt) throw missing(id);
    const chain: DiskNode[] = [];
    let parentId = node.parentId;
    // Parents are few (a tree a person made); the walk is bounded anyway.
    for (let depth = 0; parentId && depth < 256; depth++) {
      const parent = await this.nodes.find(parentId);
      if (!parent) break;
      chain.unshift(parent);
      parentId = parent.parentId;
    }
    if (node.ownerId === who.userId) return { node, level: "owner", ancestors: chain };
    const path = [...chain, node];
    const shares = await this.nodes.sharesFor(
      who,
      path.map((item) => item.id),
    );
    if (shares.length === 0) throw missing(id);
    let level: DiskAccessLevel = "view";
    for (const share of shares) if (RANK[share.level] > RANK[level]) level = share.level;
    const topIndex = Math.min(...shares.map((share) => path.findIndex((item) => item.id === share.nodeId)));
    return { node, level, ancestors: chain.slice(topIndex) };
  }

  /** The node when the caller has at least `wanted`; 404 without any access, 403 with less. */
  async require(who: Grantee, id: string, wanted: DiskAccessLevel): Promise<Accessed> {
    const accessed = await this.resolve(who, id);
    if (!atLeast(accessed.level, wanted)) {
      throw new Forbidden(`disk item ${id}: ${wanted} access is needed, the share gives ${accessed.level}`);
    }
    return accessed;
  }
}
