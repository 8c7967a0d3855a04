import { randomUUID } from "node:crypto";
import type { Db } from "../../db/database.js";
import { Forbidden, Invalid, NotFound } from "../../http/errors.js";
import type { AuditEntry, AuditLog } from "../audit/audit-log.js";
import type { Actor } from "../auth/actor.js";
import type { FoldersService } from "../folders/folders.service.js";
import type { LibrariesService } from "../libraries/libraries.service.js";
import { storyListQuery } from "../search/search.schema.js";
import type { StoryAccess } from "../stories/story-access.js";
import { storyAction } from "../stories/story-action.js";
import type { StoryActionLog } from "../stories/story-actions.service.js";
import type { StoryQueries } from "../stories/story-queries.service.js";
import type { ShareDrops } from "./share-drops.js";
import { hashShareToken, newShareToken } from "./share-tokens.js";
import type {
  SharedStoryCount,
  ShareItem,
  ShareListState,
  ShareRecord,
  ShareSettings,
  SharesRepository,
  ShareVisitRecord,
} from "./shares.repository.js";
import type { CreateShareInput, UpdateShareInput } from "./shares.schema.js";

export interface ShareGrant {
  id: string;
  token: string;
  url: string;
  expiresAt: string | null;
}

export type ShareState = "active" | "expired" | "revoked" | "used-up";

export interface ShareListItem
  extends Omit<ShareRecord, "tokenHash" | "passwordHash" | "searchQuery" | "updatedAt" | "drop"> {
  target: string | null;
  uploadDrop: (NonNullable<ShareRecord["drop"]> & { folderName: string | null }) | null;
  storyCount: number | null;
  hasPassword: boolean;
  state: ShareState;
  createdByName: string | null;
}

/** A row of the visitor log as the owner reads it: the story's title when they can still read it. */
export interface ShareVisitItem extends Omit<ShareVisitRecord, "shareId"> {
  storyTitle: string | null;
}

/** What shares need of the download presets (the presets module's public service). */
export interface SharePresets {
  /** The story type a download preset renders; undefined when there is no such download preset. */
  storyTypeOf(presetId: string): Promise<string | undefined>;
  /** The download presets a user may use. */
  usable(actor: Actor): Promise<{ id: string }[]>;
}

export interface SharesDependencies {
  db: Db;
  queries: Pick<StoryQueries, "findMany">;
  presets: SharePresets;
  shares: SharesRepository;
  access: StoryAccess;
  libraries: LibrariesService;
  folders: FoldersService;
  actions: StoryActionLog;
  audit: AuditLog;
  hashPassword: (password: string) => Promise<string>;
  /** The upload drop's options, checked against what the owner may do. */
  drops: Pick<ShareDrops, "options">;
  /** A user by id (the list's owner names); the visitors' service asks the same. */
  owner: (userId: string) => Promise<{ name: string } | undefined>;
  clock?: () => Date;
}

const DAY_MS = 86_400_000;
export const DEFAULT_SHARE_DAYS = 7;

/** The visitor page a token opens. */
export function visitorUrl(token: string): string {
  return `/share/storyPreview?token=${token}`;
}

/** Whether a share still opens, as its owner's list shows it (the owner's access is checked at each visit). */
export function shareState(share: ShareRecord, now: Date): ShareState {
  if (share.revokedAt) return "revoked";
  if (share.expiresAt !== null && Date.parse(share.expiresAt) <= now.getTime()) return "expired";
  if (share.viewLimit !== null && share.views >= share.viewLimit) return "used-up";
  return "active";
}

function shareAudit(
  share: Pick<ShareRecord, "id" | "title">,
  verb: string,
  entry: Partial<AuditEntry> = {},
): AuditEntry {
  return { ...entry, action: `share.${verb}`, target: { type: "share", id: share.id, label: share.title } };
}

/** Share links: made, listed, changed and revoked by their owners (docs/sharing.md). Visitors: ShareVisits. */
export class SharesService {
  constructor(private readonly deps: SharesDependencies) {}

  #now(): Date {
    return this.deps.clock?.() ?? new Date();
  }

  settings(): Promise<ShareSettings> {
    return this.deps.shares.settings();
  }

  /** Per story and maker, the links made within [from, to) that share it (the usage statistics). */
  sharedStories(from: string, to: string): Promise<SharedStoryCount[]> {
    return this.deps.shares.sharedStories(from, to);
  }

  async saveSettings(actor: Actor, settings: ShareSettings): Promise<ShareSettings> {
    const before = await this.deps.shares.settings();
    await this.deps.db.kysely.transaction().execute(async (trx) => {
      await this.deps.shares.with(trx).saveSettings(settings, actor.username, this.#now().toISOString());
      await this.deps.audit.record(trx, actor, {
        action: "share-settings.update",
        target: { type: "share-settings", id: "1" },
        before: { ...before },
        after: { ...settings },
      });
    });
    return settings;
  }

  /** The expiry an option asks for, within the administrator's limits. */
  async #expiry(expiresAt: string | null | undefined, now: Date): Promise<string | null> {
    const settings = await this.deps.shares.settings();
    if (expiresAt === undefined) {
      return new Date(now.getTime() + Math.min(DEFAULT_SHARE_DAYS, settings.maxDays) * DAY_MS).toISOString();
    }
    if (expiresAt === null) {
      if (!settings.allowNever) throw new Invalid("expiresAt: links that never expire are not allowed here");
      return null;
    }
    const at = Date.parse(expiresAt);
    if (at <= now.getTime()) throw new Invalid("expiresAt: must be in the future");
    if (at > now.getTime() + settings.maxDays * DAY_MS) {
      throw new Invalid(`expiresAt: at most ${settings.maxDays} days from now`).withMessageCode("share.maxDays", {
        days: settings.maxDays,
      });
    }
    return new Date(at).toISOString();
  }

  /** What the target names, checked against what the actor can read now; its default title. */
  async #target(
    actor: Actor,
    target: CreateShareInput["target"],
  ): Promise<{
    items: ShareItem[];
    libraryId: string | null;
    folderId: string | null;
    title: string;
    query: Record<string, unknown> | null;
  }> {
    switch (target.kind) {
      case "story": {
        const story = await this.deps.access.forRead(actor, target.libraryId, target.storyId, "target.storyId");
        return {
          items: [{ libraryId: story.libraryId, storyId: story.id }],
          libraryId: story.libraryId,
          folderId: null,
          title: story.title || story.originalName || "",
          query: null,
        };
      }
      case "stories": {
        const seen = new Set<string>();
        const items: ShareItem[] = [];
        for (const [index, ref] of target.stories.entries()) {
          if (seen.has(ref.storyId)) continue;
          seen.add(ref.storyId);
          const story = await this.deps.access.forRead(actor, ref.libraryId, ref.storyId, `target.stories.${index}`);
          items.push({ libraryId: story.libraryId, storyId: story.id });
        }
        return { items, libraryId: null, folderId: null, title: "", query: null };
      }
      case "folder": {
        await this.deps.libraries.require(actor, target.libraryId, "read");
        const folder = await this.deps.folders.require(target.libraryId, target.folderId, "target.folderId");
        return { items: [], libraryId: target.libraryId, folderId: folder.id, title: folder.name, query: null };
      }
      case "search": {
        const parsed = storyListQuery.safeParse(
          Object.fromEntries(Object.entries(target.query).map(([key, value]) => [key, String(value)])),
        );
        if (!parsed.success) {
          throw new Invalid(`target.query: ${parsed.error.issues.map((issue) => issue.path.join(".")).join(", ")}`);
        }
        if (parsed.data.libraryId) await this.deps.libraries.require(actor, parsed.data.libraryId, "read");
        const title = parsed.data.fulltext ?? parsed.data.keyword ?? "";
        return { items: [], libraryId: parsed.data.libraryId ?? null, folderId: null, title, query: target.query };
      }
    }
  }

  /** What visitors may download: a preset's rendition only of a download preset the owner may use. */
  async #downloads(
    actor: Actor,
    policy: ShareRecord["downloadPolicy"],
    presetId: string | null | undefined,
  ): Promise<Pick<ShareRecord, "downloadPolicy" | "downloadPresetId">> {
    if (policy !== "preset") return { downloadPolicy: policy, downloadPresetId: null };
    if (!presetId) throw new Invalid("downloadPresetId: name the download preset whose rendition visitors get");
    if ((await this.deps.presets.storyTypeOf(presetId)) === undefined) {
      throw new Invalid(`downloadPresetId: there is no download preset ${presetId}`);
    }
    if (!(await this.deps.presets.usable(actor)).some((preset) => preset.id === presetId)) {
      throw new Forbidden(`downloadPresetId: the download preset ${presetId} is not yours to use`);
    }
    return { downloadPolicy: "preset", downloadPresetId: presetId };
  }

  async create(actor: Actor, input: CreateShareInput): Promise<ShareGrant> {
    const now = this.#now();
    const target = await this.#target(actor, input.target);
    const expiresAt = await this.#expiry(input.expiresAt, now);
    const downloads = await this.#downloads(actor, input.downloadPolicy ?? "preview", input.downloadPresetId);
    const drop = (await this.deps.drops.options(actor, input.uploadDrop)) ?? null;
    const token = newShareToken();
    const share = {
      id: randomUUID(),
      tokenHash: hashShareToken(token),
      kind: input.target.kind,
      title: input.title || target.title,
      message: input.message ?? null,
      libraryId: target.libraryId,
      folderId: target.folderId,
      searchQuery: target.query,
      passwordHash: input.password ? await this.deps.hashPassword(input.password) : null,
      expiresAt,
      viewLimit: input.viewLimit ?? null,
      downloadLimit: input.downloadLimit ?? null,
      ...downloads,
      metadata: input.metadata ?? "basic",
      keepLocation: input.keepLocation ?? false,
      drop,
      createdBy: actor.id,
      createdAt: now.toISOString(),
    } as const;
    await this.deps.db.kysely.transaction().execute(async (trx) => {
      await this.deps.shares.with(trx).add(share, target.items);
      await this.deps.actions.record(
        target.items.map((item) =>
          storyAction(actor, { libraryId: item.libraryId, id: item.storyId }, "share", {
            shareId: share.id,
            expiresAt,
          }),
        ),
        { at: share.createdAt, transaction: trx },
      );
      await this.deps.audit.record(
        trx,
        actor,
        shareAudit(share, "create", {
          details: {
            kind: share.kind,
            stories: target.items.map((item) => item.storyId).slice(0, 50),
            folderId: share.folderId,
            expiresAt,
            password: share.passwordHash !== null,
            viewLimit: share.viewLimit,
            downloadLimit: share.downloadLimit,
            downloadPolicy: share.downloadPolicy,
            downloadPresetId: share.downloadPresetId,
            metadata: share.metadata,
            keepLocation: share.keepLocation,
            uploadDrop: drop,
          },
        }),
      );
    });
    return { id: share.id, token, url: visitorUrl(token), expiresAt };
  }

  /** The quick default of spec section 7: one story, previews, caption and credit, `days` days. */
  quickShare(actor: Actor, libraryId: string, storyId: string, days: number): Promise<ShareGrant> {
    const expiresAt = new Date(this.#now().getTime() + days * DAY_MS).toISOString();
    return this.create(actor, { target: { kind: "story", libraryId, storyId }, expiresAt });
  }

  /**
   * My shares, or (administrators, `all` or `owner`) everyone's or one user's,
   * filtered by state now and by words of the title or message.
   */
  async list(
    actor: Actor,
    query: { page: number; size: number; all: boolean; owner?: string; state?: ShareListState; keyword?: string },
  ): Promise<{ content: ShareListItem[]; total: number }> {
    const others = query.all || (query.owner !== undefined && query.owner !== actor.id);
    if (others && !actor.admin) throw new Forbidden("only administrators see every user's shares");
    const createdBy = query.owner ?? (query.all ? null : actor.id);
    const { shares, total } = await this.deps.shares.list(createdBy, {
      page: query.page,
      size: query.size,
      ...(query.state ? { state: query.state } : {}),
      ...(query.keyword ? { keyword: query.keyword } : {}),
      now: this.#now().toISOString(),
    });
    const content: ShareListItem[] = [];
    for (const share of shares) content.push(await this.#item(actor, share));
    return { content, total };
  }

  /** What a share points at, as the actor can read it now (null when they cannot, or it is gone). */
  async #targetName(actor: Actor, share: ShareRecord): Promise<string | null> {
    switch (share.kind) {
      case "story":
      case "stories": {
        const [first] = await this.deps.shares.items(share.id);
        if (!first || !(await this.deps.libraries.canRead(actor, first.libraryId))) return null;
        const [story] = await this.deps.queries.findMany([first.storyId]);
        return story ? story.title || story.originalName || null : null;
      }
      case "folder": {
        if (!share.libraryId || !share.folderId) return null;
        return this.#folderName(actor, share.libraryId, share.folderId);
      }
      case "search": {
        const query = share.searchQuery ?? {};
        const words = query.fulltext ?? query.keyword;
        return typeof words === "string" && words !== "" ? words : null;
      }
    }
  }

  /** A folder's name, when the actor can read its library (null otherwise, or when it is gone). */
  async #folderName(actor: Actor, libraryId: string, folderId: string): Promise<string | null> {
    if (!(await this.deps.libraries.canRead(actor, libraryId))) return null;
    try {
      return (await this.deps.folders.require(libraryId, folderId)).name;
    } catch {
      return null;
    }
  }

  /** A share the actor made (administrators: any); 404 otherwise, so ids of others' shares do not leak. */
  async #own(actor: Actor, shareId: string): Promise<ShareRecord> {
    const share = await this.deps.shares.byId(shareId);
    if (!share || (share.createdBy !== actor.id && !actor.admin)) throw new NotFound(`share ${shareId} is not yours`);
    return share;
  }

  async update(actor: Actor, shareId: string, input: UpdateShareInput): Promise<ShareListItem> {
    const share = await this.#own(actor, shareId);
    if (share.revokedAt) throw new Invalid("a revoked share cannot be changed");
    const now = this.#now();
    const downloads =
      input.downloadPolicy !== undefined || input.downloadPresetId !== undefined
        ? await this.#downloads(
            actor,
            input.downloadPolicy ?? share.downloadPolicy,
            input.downloadPresetId !== undefined ? input.downloadPresetId : share.downloadPresetId,
          )
        : {};
    const changes = {
      ...(input.title !== undefined ? { title: input.title } : {}),
      ...(input.message !== undefined ? { message: input.message } : {}),
      ...(input.expiresAt !== undefined ? { expiresAt: await this.#expiry(input.expiresAt, now) } : {}),
      ...(input.password !== undefined
        ? { passwordHash: input.password === null ? null : await this.deps.hashPassword(input.password) }
        : {}),
      ...(input.viewLimit !== undefined ? { viewLimit: input.viewLimit } : {}),
      ...(input.downloadLimit !== undefined ? { downloadLimit: input.downloadLimit } : {}),
      ...downloads,
      ...(input.metadata !== undefined ? { metadata: input.metadata } : {}),
      ...(input.keepLocation !== undefined ? { keepLocation: input.keepLocation } : {}),
      ...(input.uploadDrop !== undefined ? { drop: await this.deps.drops.options(actor, input.uploadDrop) } : {}),
    };
    const shown = (record: Partial<Omit<ShareRecord, "drop">> & { drop?: unknown }) =>
      Object.fromEntries(
        Object.keys(changes).map((key) =>
          key === "passwordHash"
            ? ["password", record.passwordHash !== null]
            : [key, record[key as keyof typeof record]],
        ),
      );
    await this.deps.db.kysely.transaction().execute(async (trx) => {
      await this.deps.shares.with(trx).update(share.id, changes, now.toISOString());
      await this.deps.audit.record(
        trx,
        actor,
        shareAudit(share, "update", { before: shown(share), after: shown({ ...share, ...changes }) }),
      );
    });
    return this.#item(actor, (await this.deps.shares.byId(share.id))!);
  }

  async revoke(actor: Actor, shareId: string): Promise<void> {
    const share = await this.#own(actor, shareId);
    await this.deps.db.kysely.transaction().execute(async (trx) => {
      if (!(await this.deps.shares.with(trx).revoke(share.id, this.#now().toISOString()))) return;
      await this.deps.audit.record(trx, actor, shareAudit(share, "revoke"));
    });
  }

  /** A page of a share's visitor log, newest first: its owner's or, for an administrator, any share's. */
  async visits(
    actor: Actor,
    shareId: string,
    query: { page: number; size: number },
  ): Promise<{ content: ShareVisitItem[]; total: number }> {
    const share = await this.#own(actor, shareId);
    const { visits, total } = await this.deps.shares.visits(share.id, query);
    const storyIds = [...new Set(visits.flatMap((visit) => (visit.storyId ? [visit.storyId] : [])))];
    const titles = new Map<string, string>();
    for (const story of storyIds.length > 0 ? await this.deps.queries.findMany(storyIds) : []) {
      if (await this.deps.libraries.canRead(actor, story.libraryId)) {
        titles.set(story.id, story.title || story.originalName || "");
      }
    }
    const content = visits.map(({ shareId: _s, ...visit }) => ({
      ...visit,
      storyTitle: visit.storyId ? (titles.get(visit.storyId) ?? null) : null,
    }));
    return { content, total };
  }

  async #item(actor: Actor, share: ShareRecord): Promise<ShareListItem> {
    const counts = await this.deps.shares.itemCounts([share.id]);
    const { tokenHash: _t, passwordHash, searchQuery: _q, updatedAt: _u, drop, ...rest } = share;
    return {
      ...rest,
      uploadDrop: drop && { ...drop, folderName: await this.#folderName(actor, drop.libraryId, drop.folderId) },
      target: await this.#targetName(actor, share),
      storyCount: share.kind === "story" || share.kind === "stories" ? (counts.get(share.id) ?? 0) : null,
      hasPassword: passwordHash !== null,
      state: shareState(share, this.#now()),
      createdByName: share.createdBy ? ((await this.deps.owner(share.createdBy))?.name ?? null) : null,
    };
  }
}
