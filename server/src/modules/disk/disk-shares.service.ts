import { randomUUID } from "node:crypto";
import { Invalid, NotFound } from "../../http/errors.js";
import type { RolesService } from "../access/roles.service.js";
import type { AuditLog } from "../audit/audit-log.js";
import type { Actor } from "../auth/actor.js";
import type { UsersService } from "../users/users.service.js";
import type { DiskRepository, DiskShare, GranteeKind, ShareLevel } from "./disk.repository.js";
import { type DiskNodeView, type DiskService, diskTarget, granteeOf, nodeView } from "./disk.service.js";

export type GranteeInput = { kind: "user"; username: string } | { kind: "role"; roleId: string } | { kind: "everyone" };

export interface DiskShareView {
  id: string;
  nodeId: string;
  nodeName: string;
  nodeKind: "folder" | "file";
  granteeKind: GranteeKind;
  granteeId: string;
  /** The user name or role name the share names ("everyone" for everyone). */
  granteeName: string;
  level: ShareLevel;
  createdAt: string;
}

export interface SharedWithMe {
  shareId: string;
  level: ShareLevel;
  ownerName: string;
  sharedAt: string;
  node: DiskNodeView;
}

export interface DiskSharesDependencies {
  nodes: DiskRepository;
  disk: DiskService;
  users: Pick<UsersService, "enabledUser" | "enabledUserByName">;
  roles: Pick<RolesService, "get">;
  audit: AuditLog;
  clock?: () => Date;
}

/** Sharing a disk folder or file inside the newsroom: with a colleague, a role or everyone, as view, download or edit. */
export class DiskSharesService {
  constructor(private readonly deps: DiskSharesDependencies) {}

  async #granteeName(kind: GranteeKind, id: string): Promise<string> {
    if (kind === "everyone") return "everyone";
    if (kind === "user") return (await this.deps.users.enabledUser(id))?.username ?? id;
    return this.deps.roles
      .get(id)
      .then((role) => role.name)
      .catch(() => id);
  }

  async #view(share: DiskShare, node?: { name: string; kind: "folder" | "file" }): Promise<DiskShareView> {
    const target = node ?? (await this.deps.nodes.find(share.nodeId));
    return {
      id: share.id,
      nodeId: share.nodeId,
      nodeName: target?.name ?? "",
      nodeKind: target?.kind ?? "file",
      granteeKind: share.granteeKind,
      granteeId: share.granteeId,
      granteeName: await this.#granteeName(share.granteeKind, share.granteeId),
      level: share.level,
      createdAt: share.createdAt,
    };
  }

  /** Shares (or re-levels the share of) one of the caller's own nodes. */
  async share(
    actor: Actor,
    nodeId: string,
    input: { grantee: GranteeInput; level: ShareLevel },
  ): Promise<DiskShareView> {
    const { node, level } = await this.deps.disk.get(actor, nodeId);
    if (level !== "owner") throw new NotFound(`disk item ${nodeId} does not exist`, "disk_item_not_found");
    let granteeId = "*";
    if (input.grantee.kind === "user") {
      const user = await this.deps.users.enabledUserByName(input.grantee.username);
      if (!user) throw new Invalid(`grantee.username: no user ${input.grantee.username}`, "user_not_found");
      if (user.id === actor.id) throw new Invalid("grantee.username: the disk is yours already", "share_self");
      granteeId = user.id;
    } else if (input.grantee.kind === "role") {
      await this.deps.roles.get(input.grantee.roleId).catch(() => {
        throw new Invalid(`grantee.roleId: no role ${input.grantee.kind === "role" ? input.grantee.roleId : ""}`);
      });
      granteeId = input.grantee.roleId;
    }
    const share = await this.deps.nodes.transaction(async (trx) => {
      const saved = await this.deps.nodes.upsertShare(
        {
          id: randomUUID(),
          nodeId: node.id,
          ownerId: actor.id,
          granteeKind: input.grantee.kind,
          granteeId,
          level: input.level,
          createdAt: (this.deps.clock?.() ?? new Date()).toISOString(),
        },
        trx,
      );
      await this.deps.audit.record(trx, actor, {
        action: "disk.share",
        target: diskTarget(node),
        details: { granteeKind: input.grantee.kind, granteeId, level: input.level },
      });
      return saved;
    });
    return this.#view(share, node);
  }

  async revoke(actor: Actor, shareId: string): Promise<void> {
    const share = await this.deps.nodes.findShare(shareId);
    if (!share || share.ownerId !== actor.id) throw new NotFound(`share ${shareId} does not exist`, "share_not_found");
    await this.deps.nodes.transaction(async (trx) => {
      await this.deps.nodes.deleteShare(share.id, trx);
      await this.deps.audit.record(trx, actor, {
        action: "disk.unshare",
        target: { type: "disk-item", id: share.nodeId },
        details: { granteeKind: share.granteeKind, granteeId: share.granteeId },
      });
    });
  }

  /** The caller's shares, of one node or all. */
  async mine(actor: Actor, nodeId?: string): Promise<DiskShareView[]> {
    if (nodeId) {
      const { level } = await this.deps.disk.get(actor, nodeId);
      if (level !== "owner") throw new NotFound(`disk item ${nodeId} does not exist`, "disk_item_not_found");
    }
    const shares = nodeId ? await this.deps.nodes.sharesOfNode(nodeId) : await this.deps.nodes.sharesByOwner(actor.id);
    const nodes = new Map((await this.deps.nodes.findMany(shares.map((share) => share.nodeId))).map((n) => [n.id, n]));
    const live = shares.filter((share) => nodes.get(share.nodeId) && !nodes.get(share.nodeId)!.trashedAt);
    return Promise.all(live.map((share) => this.#view(share, nodes.get(share.nodeId))));
  }

  /** What colleagues shared with the caller (by name, role or with everyone), the highest level per node. */
  async sharedWithMe(actor: Actor): Promise<SharedWithMe[]> {
    const shares = await this.deps.nodes.sharesFor(granteeOf(actor));
    const nodes = new Map((await this.deps.nodes.findMany(shares.map((share) => share.nodeId))).map((n) => [n.id, n]));
    const byNode = new Map<string, SharedWithMe>();
    const rank = { view: 1, download: 2, edit: 3 } as const;
    for (const share of shares) {
      const node = nodes.get(share.nodeId);
      if (!node || node.trashedAt) continue;
      const earlier = byNode.get(node.id);
      if (earlier && rank[earlier.level] >= rank[share.level]) continue;
      byNode.set(node.id, {
        shareId: share.id,
        level: share.level,
        ownerName: (await this.deps.users.enabledUser(share.ownerId))?.username ?? "",
        sharedAt: share.createdAt,
        node: nodeView(node, share.level),
      });
    }
    return [...byNode.values()];
  }
}
