import type { FastifyRequest } from "fastify";
import type { Db } from "../../db/database.js";
import type { ShareVisitAction } from "../../db/schema.js";
import { API_PREFIX } from "../../http/error-handler.js";
import { AppError, Forbidden, NotFound } from "../../http/errors.js";
import type { LibraryUser } from "../access/library-access.js";
import type { AuditBy, AuditLog } from "../audit/audit-log.js";
import type { ShareVisit, ShareVisitResolver } from "../auth/auth.types.js";
import type { FoldersService } from "../folders/folders.service.js";
import type { LibrariesService } from "../libraries/libraries.service.js";
import type { EmbedLevel } from "../outgoing/outgoing-copies.js";
import type { CompositeTextQueries } from "../stories/composite-text.service.js";
import type { StoryDownloads } from "../stories/story-downloads.service.js";
import type { StoryQueries } from "../stories/story-queries.service.js";
import type { StoryView } from "../stories/story-view.js";
import type { ShareDrops } from "./share-drops.js";
import { hashShareToken, passwordStamp, type ShareSigner, sameDigest, TOKEN_SHAPE } from "./share-tokens.js";
import { listQuery, subtree } from "./shared-lists.js";
import type { NewShareVisit, ShareRecord, SharesRepository } from "./shares.repository.js";
import { shareState } from "./shares.service.js";
import {
  PRESET_RENDITION,
  type ShareFileClaims,
  toVisitorStory,
  type VisitedShare,
  visibleParts,
} from "./visitor-story.js";

/** The owner as a visit needs them: who, whether enabled, what they may read. */
export interface ShareOwner extends LibraryUser {
  name: string;
  status: number;
}

export interface ShareThrottle {
  check(key: string, rule: { limit: number; windowSeconds: number }): Promise<void>;
  record(key: string): Promise<void>;
}

export const SHARE_THROTTLE = {
  /** Wrong passwords for one link, from anywhere. */
  passwordPerLink: { limit: 10, windowSeconds: 15 * 60 },
  /** Wrong passwords from one address, whatever the link. */
  passwordPerAddress: { limit: 20, windowSeconds: 15 * 60 },
  /** Tokens that open nothing, from one address (guessing). */
  lookupPerAddress: { limit: 30, windowSeconds: 15 * 60 },
};

/** What a visit needs of the download presets (the presets module's public service). */
export interface ShareVisitPresets {
  storyTypeOf(presetId: string): Promise<string | undefined>;
  /** The finished rendition, made now when it is missing (the first visitor to ask waits for it). */
  ensureRendered(
    presetId: string,
    ref: { libraryId: string; storyId: string; versionNo?: number },
    outgoing: { level: EmbedLevel; stripPrivate: boolean },
  ): Promise<{ blobKey: string; fileName: string; contentType: string; etag?: string }>;
}

/** A file a visitor downloads: the blob, how to name it. */
interface DownloadFile {
  blobKey: string;
  fileName: string;
  contentType: string;
  etag?: string;
}

export interface ShareVisitsDependencies {
  db: Db;
  shares: SharesRepository;
  presets: ShareVisitPresets;
  queries: StoryQueries;
  downloads: StoryDownloads;
  libraries: LibrariesService;
  folders: FoldersService;
  owner: (userId: string) => Promise<ShareOwner | undefined>;
  throttle: ShareThrottle;
  verifyPassword: (hash: string, password: string) => Promise<boolean>;
  audit: AuditLog;
  sessions: ShareSigner;
  files: ShareSigner;
  /** Those of these stories under an embargo now, with its end (the publishing module): a share leaves them out. */
  embargoed: (storyIds: string[]) => Promise<Map<string, string>>;
  /** The upload drop, as the visitor page shows it. */
  drops: Pick<ShareDrops, "forVisitor">;
  /** Lifetime of the media and download URLs handed to visitors. */
  fileTtlSeconds: number;
  /**
   * The story properties hidden from any role (field-level access,
   * `PropertyAccessService.hiddenFromAnyRole`): a visitor sees none of them.
   */
  restrictedProperties: () => Promise<ReadonlySet<string>>;
  /** Composites' texts as parts (the stories module's CompositeTextQueries). */
  texts?: Pick<CompositeTextQueries, "partsOf">;
  clock?: () => Date;
}

/** Stories a folder or search share shows at most. */
export const MAX_SHARED_STORIES = 200;
const SESSION_SECONDS = 12 * 3600;
export const SHARE_FILES_PATH = "/shared/files";
/** Characters of the User-Agent the visitor log keeps. */
const USER_AGENT_KEPT = 160;
/** Files whose fetch the visitor log records as a view of the story (not thumbnails, posters, waveforms). */
const VIEWED_RENDITIONS = new Set(["preview", "proxy"]);

/** The one answer for a link that opens nothing: unknown, expired, revoked, used up, or its owner lost access. */
export function shareGone(): AppError {
  return new AppError(410, "share_unavailable", "this share link has expired, was revoked or does not exist");
}

interface Visit {
  share: ShareRecord;
  owner: ShareOwner;
  unlocked: boolean;
}

/**
 * What a share link's visitor may do: the `share` kind of access of the API
 * hook (`resolve`), the password, the shared stories and their files. A share
 * never grants more than its owner can read now; visitors never hold a user
 * token; every visitor action goes to the operation log.
 */
export class ShareVisits implements ShareVisitResolver {
  readonly #visits = new WeakMap<FastifyRequest, Visit>();

  constructor(private readonly deps: ShareVisitsDependencies) {}

  #now(): Date {
    return this.deps.clock?.() ?? new Date();
  }

  #visitor(request: FastifyRequest, share?: ShareRecord): AuditBy {
    return {
      id: null,
      username: share ? `share:${share.id.slice(0, 8)}` : "share visitor",
      ip: request.ip,
      userAgent: request.headers["user-agent"] ?? null,
    };
  }

  /** A row of the share's visitor log for this request: when, the address as the server sees it, what. */
  #visitRow(
    request: FastifyRequest,
    share: ShareRecord,
    action: ShareVisitAction,
    storyId: string | null = null,
  ): NewShareVisit {
    const agent = request.headers["user-agent"];
    return {
      shareId: share.id,
      at: this.#now().toISOString(),
      address: request.ip ?? null,
      action,
      storyId,
      userAgent: typeof agent === "string" ? agent.slice(0, USER_AGENT_KEPT) : null,
    };
  }

  #log(request: FastifyRequest, share: ShareRecord, action: ShareVisitAction, storyId?: string): Promise<void> {
    return this.deps.shares.recordVisit(this.#visitRow(request, share, action, storyId));
  }

  /** Counts a view (open) or a download (download, zip) and logs it, in one transaction; false past the limit. */
  #count(
    request: FastifyRequest,
    share: ShareRecord,
    action: "open" | "download" | "zip",
    storyId?: string,
  ): Promise<boolean> {
    const visit = this.#visitRow(request, share, action, storyId);
    return this.deps.db.kysely.transaction().execute(async (trx) => {
      const shares = this.deps.shares.with(trx);
      const counted =
        action === "open" ? await shares.countView(share.id, visit.at) : await shares.countDownload(share.id, visit.at);
      if (counted) await shares.recordVisit(visit);
      return counted;
    });
  }

  /** The share, when it opens: not revoked, not expired, not used up, its owner enabled. */
  async #usable(share: ShareRecord | undefined): Promise<{ share: ShareRecord; owner: ShareOwner }> {
    if (!share || shareState(share, this.#now()) !== "active" || !share.createdBy) throw shareGone();
    const owner = await this.deps.owner(share.createdBy);
    if (owner?.status !== 1) throw shareGone();
    return { share, owner };
  }

  async resolve(request: FastifyRequest, needsUnlock: boolean): Promise<ShareVisit> {
    const addressKey = `share-lookup:${request.ip}`;
    await this.deps.throttle.check(addressKey, SHARE_THROTTLE.lookupPerAddress);
    const token = request.headers["x-share-token"];
    const tokenHash = typeof token === "string" && TOKEN_SHAPE.test(token) ? hashShareToken(token) : null;
    const found = tokenHash ? await this.deps.shares.byTokenHash(tokenHash) : undefined;
    if (!found || !tokenHash || !sameDigest(found.tokenHash, tokenHash)) {
      await this.deps.throttle.record(addressKey);
      throw shareGone();
    }
    const { share, owner } = await this.#usable(found);
    const unlocked = share.passwordHash === null || this.#validSession(request.headers["x-share-session"], share);
    if (needsUnlock && !unlocked) {
      throw new AppError(401, "share_locked", "this share needs its password");
    }
    this.#visits.set(request, { share, owner, unlocked });
    return { shareId: share.id, unlocked };
  }

  #validSession(header: string | string[] | undefined, share: ShareRecord): boolean {
    if (typeof header !== "string") return false;
    const claims = this.deps.sessions.verify(header);
    return claims?.h === share.id && claims.p === passwordStamp(share.passwordHash);
  }

  #visit(request: FastifyRequest): Visit {
    const visit = this.#visits.get(request);
    if (!visit) throw new Forbidden();
    return visit;
  }

  /** A share-scoped session after the right password; wrong ones are throttled per link and per address. */
  async unlock(request: FastifyRequest, password: string): Promise<{ session: string; expiresAt: string }> {
    const { share } = this.#visit(request);
    const linkKey = `share-password:${share.id}`;
    const addressKey = `share-password-address:${request.ip}`;
    await this.deps.throttle.check(linkKey, SHARE_THROTTLE.passwordPerLink);
    await this.deps.throttle.check(addressKey, SHARE_THROTTLE.passwordPerAddress);
    const right = share.passwordHash === null || (await this.deps.verifyPassword(share.passwordHash, password));
    const target = { type: "share", id: share.id, label: share.title };
    if (!right) {
      await this.deps.throttle.record(linkKey);
      await this.deps.throttle.record(addressKey);
      await this.#log(request, share, "wrong-password");
      await this.deps.audit.recordEvent(this.#visitor(request, share), {
        action: "share.unlock",
        target,
        result: "failed",
      });
      throw new AppError(401, "share_password_wrong", "the password is not right");
    }
    await this.#log(request, share, "unlock");
    await this.deps.audit.recordEvent(this.#visitor(request, share), { action: "share.unlock", target });
    const now = Math.floor(this.#now().getTime() / 1000);
    const until = share.expiresAt ? Math.floor(Date.parse(share.expiresAt) / 1000) : Number.POSITIVE_INFINITY;
    const expiresAt = Math.min(now + SESSION_SECONDS, until);
    const session = this.deps.sessions.sign({ h: share.id, p: passwordStamp(share.passwordHash) }, expiresAt);
    return { session, expiresAt: new Date(expiresAt * 1000).toISOString() };
  }

  /** The share as the visitor page shows it; a view is counted (410 once the limit is reached). */
  async open(request: FastifyRequest) {
    const { share, owner, unlocked } = this.#visit(request);
    const base = {
      kind: share.kind,
      title: share.title,
      message: unlocked ? share.message : null,
      locked: !unlocked,
      expiresAt: share.expiresAt,
      downloadPolicy: share.downloadPolicy,
      owner: owner.name,
    };
    if (!unlocked) {
      await this.#log(request, share, "locked");
      return { ...base, zipUrl: null, stories: [], truncated: false, uploadDrop: null };
    }
    if (!(await this.#count(request, share, "open"))) throw shareGone();
    const { views, truncated } = await this.#stories(share, owner);
    const members = await this.#members(views, owner);
    const sign = (claims: ShareFileClaims) => this.#fileUrl(share, claims);
    const visited = await this.#withPreset(share);
    const stories = views.map((view) => toVisitorStory(visited, view, members, sign));
    const texts =
      (await this.deps.texts?.partsOf(views.filter((v) => v.type === "composite").map((v) => v.id))) ?? new Map();
    const shown = stories.map(({ downloadRendition: _d, members: inner, ...story }) => ({
      ...story,
      members: inner.map(({ downloadRendition: _m, ...member }) => member),
      // A composite's text, split around its members; a member the visitor does not see leaves no placeholder.
      textParts: visibleParts(texts.get(story.storyId), inner),
    }));
    await this.deps.audit.recordEvent(this.#visitor(request, share), {
      action: "share.open",
      target: { type: "share", id: share.id, label: share.title },
      details: { stories: stories.length },
    });
    const zipUrl =
      share.downloadPolicy !== "none" && stories.some((story) => story.downloadUrl !== null)
        ? sign({ s: "*", l: "*", v: 0, r: "zip", d: 1 })
        : null;
    const uploadDrop = await this.deps.drops.forVisitor(share, owner);
    return { ...base, zipUrl, stories: shown, truncated, uploadDrop };
  }

  /**
   * The share with the story type of its download preset (null: none, or the
   * preset is gone: no download) and the properties its visitor may not see.
   */
  async #withPreset(share: ShareRecord): Promise<VisitedShare> {
    const [presetStoryType, hiddenProperties] = await Promise.all([
      share.downloadPolicy === "preset" && share.downloadPresetId
        ? this.deps.presets.storyTypeOf(share.downloadPresetId).then((type) => type ?? null)
        : null,
      this.deps.restrictedProperties(),
    ]);
    return { ...share, presetStoryType, hiddenProperties };
  }

  /**
   * The blob a download gives: a stored rendition, or the original or the
   * preset's rendition (made on the first request) as it leaves for a
   * visitor: with the story's metadata the share shows ("basic": caption,
   * credit and rights; "all": every field) and, unless the owner keeps
   * location, without GPS and serial numbers, in one exiftool request
   * (docs/media.md, "Metadata on the way out"). Cached per story revision.
   */
  async #downloadFile(share: ShareRecord, view: StoryView, rendition: string): Promise<DownloadFile> {
    const ref = { libraryId: view.libraryId, storyId: view.id, versionNo: view.versionNo };
    const outgoing = {
      level: (share.metadata === "all" ? "all" : "basic") as EmbedLevel,
      stripPrivate: this.#strips(share, rendition),
      // A visitor is trusted less than any role: no property hidden from one is written into the file.
      hidden: await this.deps.restrictedProperties(),
    };
    if (rendition === PRESET_RENDITION) return this.deps.presets.ensureRendered(share.downloadPresetId!, ref, outgoing);
    const resolved = await this.deps.downloads.resolveOutgoing({ ...ref, rendition }, outgoing);
    return {
      blobKey: resolved.blobKey,
      fileName: resolved.fileName,
      contentType: resolved.contentType,
      etag: resolved.etag,
    };
  }

  /** Originals and preset renditions carry the camera's metadata: stripped unless the owner keeps location. */
  #strips(share: ShareRecord, rendition: string): boolean {
    return !share.keepLocation && (rendition === "original" || rendition === PRESET_RENDITION);
  }

  #fileUrl(share: ShareRecord, claims: ShareFileClaims): string {
    const now = Math.floor(this.#now().getTime() / 1000);
    const ttl = this.deps.fileTtlSeconds;
    // Rounded up to a window, so the same file within it is the same URL (the browser's cache keeps working).
    const window = Math.max(60, Math.floor(ttl / 4));
    const expiresAt = Math.ceil((now + ttl) / window) * window;
    return `${API_PREFIX}${SHARE_FILES_PATH}/${this.deps.files.sign({ h: share.id, ...claims }, expiresAt)}`;
  }

  /**
   * The stories the share shows now, as its owner can read them, without
   * those under an embargo; a story or stories share whose every story is
   * embargoed answers 403 `share_embargoed` with the earliest end.
   */
  async #stories(share: ShareRecord, owner: ShareOwner): Promise<{ views: StoryView[]; truncated: boolean }> {
    const found = await this.#storiesRegardless(share, owner);
    const embargoed = await this.deps.embargoed(found.views.map((view) => view.id));
    if (embargoed.size === 0) return found;
    const views = found.views.filter((view) => !embargoed.has(view.id));
    if (views.length === 0 && (share.kind === "story" || share.kind === "stories")) {
      const until = [...embargoed.values()].sort()[0]!;
      throw new AppError(
        403,
        "share_embargoed",
        `this share's stories are under embargo until ${until}`,
      ).withMessageCode("share.embargoed", { until });
    }
    return { views, truncated: found.truncated };
  }

  async #storiesRegardless(share: ShareRecord, owner: ShareOwner): Promise<{ views: StoryView[]; truncated: boolean }> {
    if (share.kind === "story" || share.kind === "stories") {
      const items = await this.deps.shares.items(share.id);
      const readable: string[] = [];
      for (const item of items) {
        if (await this.deps.libraries.canRead(owner, item.libraryId)) readable.push(item.storyId);
      }
      const stories = await this.deps.queries.findMany(readable);
      const order = new Map(readable.map((id, index) => [id, index]));
      const byLibrary = new Map(items.map((item) => [item.storyId, item.libraryId]));
      const kept = stories
        .filter((story) => byLibrary.get(story.id) === story.libraryId)
        .sort((a, b) => order.get(a.id)! - order.get(b.id)!);
      if (kept.length === 0) throw shareGone();
      return { views: await this.deps.queries.views(kept), truncated: false };
    }
    if (share.kind === "folder") {
      const libraryId = share.libraryId!;
      if (!(await this.deps.libraries.canRead(owner, libraryId))) throw shareGone();
      const folderIds = subtree(await this.deps.folders.tree(libraryId), share.folderId!);
      if (folderIds.length === 0) throw shareGone();
      const views: StoryView[] = [];
      let truncated = false;
      for (const folderId of folderIds) {
        const query = listQuery({ libraryId, folderId }, MAX_SHARED_STORIES - views.length);
        const { content, total } = await this.deps.queries.list(owner, query);
        views.push(...content);
        if (total > content.length) truncated = true;
        if (views.length >= MAX_SHARED_STORIES) {
          truncated = truncated || folderIds.indexOf(folderId) < folderIds.length - 1;
          break;
        }
      }
      return { views, truncated };
    }
    const raw = Object.fromEntries(Object.entries(share.searchQuery ?? {}).map(([key, value]) => [key, String(value)]));
    if (raw.libraryId && !(await this.deps.libraries.canRead(owner, raw.libraryId))) throw shareGone();
    const query = listQuery(raw, MAX_SHARED_STORIES);
    if (query.status?.length === 0) return { views: [], truncated: false };
    const { content, total } = await this.deps.queries.list(owner, query);
    return { views: content, truncated: total > content.length };
  }

  /** Composites' members the owner can read, as views, by id. */
  async #members(views: StoryView[], owner: ShareOwner): Promise<Map<string, StoryView>> {
    const ids = [...new Set(views.flatMap((view) => view.members))];
    if (ids.length === 0) return new Map();
    const readable = [];
    for (const story of await this.deps.queries.findMany(ids)) {
      if (await this.deps.libraries.canRead(owner, story.libraryId)) readable.push(story);
    }
    const embargoed = await this.deps.embargoed(readable.map((story) => story.id));
    const members = await this.deps.queries.views(readable.filter((story) => !embargoed.has(story.id)));
    return new Map(members.map((member) => [member.id, member]));
  }

  /** A file of a shared story by a URL this share handed out: checked against the share as it is now. */
  async file(request: FastifyRequest, token: string) {
    const claims = this.deps.files.verify(token);
    if (!claims || typeof claims.h !== "string") {
      throw new Forbidden("the link to this file has expired; reload the share", "share_file_invalid");
    }
    const { share, owner } = await this.#usable(await this.deps.shares.byId(claims.h));
    const { views } = await this.#stories(share, owner);
    const members = await this.#members(views, owner);
    const download = claims.d === 1;
    if (download && share.downloadPolicy === "none")
      throw new Forbidden("this share allows no downloads", "share_no_download");
    const sign = (inner: ShareFileClaims) => this.#fileUrl(share, inner);
    const visited = await this.#withPreset(share);
    if (claims.r === "zip") {
      const entries = [];
      for (const view of views) {
        const rendition = toVisitorStory(visited, view, members, sign).downloadRendition;
        if (!rendition) continue;
        const file = await this.#downloadFile(share, view, rendition);
        entries.push({ key: file.blobKey, name: file.fileName, contentType: file.contentType });
      }
      if (entries.length === 0) throw new Forbidden("nothing here may be downloaded", "share_no_download");
      await this.#countDownload(request, share, "zip", { zip: entries.length });
      return { kind: "zip" as const, entries, name: `${share.title || "share"}.zip` };
    }
    const storyId = String(claims.s);
    const container = typeof claims.c === "string" ? claims.c : storyId;
    const root = views.find((view) => view.id === container);
    const inShare = root && (container === storyId || root.members.includes(storyId));
    const view = inShare ? (container === storyId ? root : members.get(storyId)) : undefined;
    if (!view) throw new NotFound("the file is not part of this share");
    const rendition = String(claims.r);
    if (!download) {
      if (!["thumbnail", "preview", "proxy", "poster", "waveform", "cover"].includes(rendition)) {
        throw new Forbidden("this file may not be viewed", "share_no_download");
      }
      const resolved = await this.deps.downloads.resolve({
        libraryId: view.libraryId,
        storyId: view.id,
        versionNo: view.versionNo,
        rendition,
      });
      const range = request.headers.range;
      if (VIEWED_RENDITIONS.has(rendition) && (range === undefined || /^bytes=0-/.test(range))) {
        await this.#log(request, share, "view", view.id);
      }
      return { kind: "file" as const, resolved, download };
    }
    const allowed = toVisitorStory(visited, view, members, sign).downloadRendition;
    if (allowed !== rendition) throw new Forbidden("this file may not be downloaded", "share_no_download");
    const file = await this.#downloadFile(share, view, rendition);
    const counted = { storyId: view.id, rendition, ...(this.#strips(share, rendition) ? { stripped: true } : {}) };
    const range = request.headers.range;
    if (range === undefined || /^bytes=0-/.test(range)) await this.#countDownload(request, share, "download", counted);
    return { kind: "file" as const, resolved: file, download };
  }

  async #countDownload(
    request: FastifyRequest,
    share: ShareRecord,
    action: "download" | "zip",
    details: { storyId?: string } & Record<string, unknown>,
  ): Promise<void> {
    if (!(await this.#count(request, share, action, details.storyId))) {
      throw new Forbidden("this share's downloads are used up", "share_download_limit");
    }
    await this.deps.audit.recordEvent(this.#visitor(request, share), {
      action: "share.download",
      target: { type: "share", id: share.id, label: share.title },
      details,
    });
  }
}
