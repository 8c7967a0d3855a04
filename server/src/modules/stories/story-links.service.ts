import { createHash, randomBytes } from "node:crypto";
import type { Db } from "../../db/database.js";
import { Conflict, Forbidden, Invalid, NotFound } from "../../http/errors.js";
import type { FoldersService } from "../folders/folders.service.js";
import { DEFAULT_LIBRARY_ID, type LibrariesService } from "../libraries/libraries.service.js";
import type { StoriesRepository } from "./stories.repository.js";
import type { NewStoryAction, StoryActionsRepository } from "./story-actions.repository.js";
import type { PublishRecord, StoryLinksRepository } from "./story-links.repository.js";
import type { StoryQueries } from "./story-queries.service.js";
import type { Actor, RelationType, Story } from "./story-types.js";
import type { StoryView } from "./story-view.js";

export interface FavoriteView {
  libraryId: string;
  storyId: string;
  type: string;
  createdAt: string;
  story: StoryView;
}

export interface RelationView {
  id: string;
  type: string;
  /** `outgoing` when this story named the other, `incoming` when the other named it. */
  direction: "outgoing" | "incoming";
  createdAt: string;
  story: StoryView;
}

export interface DefaultLibrary {
  libraryId: string;
  folderId: string | null;
  /** The front area's route for it: /frontend/{library}[/{folderId}]. */
  path: string;
}

export interface ShareGrant {
  token: string;
  url: string;
  expiresAt: string;
}

/** Share tokens live this long unless asked otherwise (days). */
export const DEFAULT_SHARE_DAYS = 7;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function hashShareToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** Favourites, relations, publishing, shares, the default library and the story action trail. */
export class StoryLinksService {
  constructor(
    private readonly deps: {
      db: Db;
      stories: StoriesRepository;
      links: StoryLinksRepository;
      actions: StoryActionsRepository;
      queries: StoryQueries;
      libraries: LibrariesService;
      folders: FoldersService;
      clock?: () => Date;
    },
  ) {}

  #now(): Date {
    return this.deps.clock?.() ?? new Date();
  }

  async #record(
    actor: Actor,
    story: Pick<Story, "libraryId" | "id">,
    action: NewStoryAction["action"],
    details?: Record<string, unknown>,
  ) {
    await this.deps.actions.record(
      {
        libraryId: story.libraryId,
        storyId: story.id,
        userId: actor.id,
        username: actor.username,
        action,
        ip: actor.ip,
        details,
      },
      this.#now().toISOString(),
    );
  }

  /** Read access and the story, for calls that name the library in the query or body. */
  async #readable(actor: Actor, libraryId: string, storyId: string, field = "storyId"): Promise<Story> {
    await this.deps.libraries.require(actor, libraryId, "read");
    const story = await this.deps.stories.find(storyId);
    if (!story || story.libraryId !== libraryId)
      throw new NotFound(`${field}: story ${storyId} is not in library ${libraryId}`);
    return story;
  }

  // Favourites

  async addFavorite(actor: Actor, input: { libraryId: string; storyId: string; type?: string }): Promise<FavoriteView> {
    const story = await this.#readable(actor, input.libraryId, input.storyId);
    const createdAt = this.#now().toISOString();
    const type = input.type ?? story.type;
    if (
      await this.deps.links.addFavorite(actor.id, { libraryId: story.libraryId, storyId: story.id, type, createdAt })
    ) {
      await this.#record(actor, story, "favorite", { type });
    }
    const [view] = await this.deps.queries.views([story]);
    return { libraryId: story.libraryId, storyId: story.id, type, createdAt, story: view! };
  }

  async removeFavorite(actor: Actor, input: { libraryId: string; storyId: string }): Promise<void> {
    const story = await this.#readable(actor, input.libraryId, input.storyId);
    if (!(await this.deps.links.removeFavorite(actor.id, story.id))) {
      throw new NotFound(`storyId: story ${story.id} is not a favourite`);
    }
    await this.#record(actor, story, "unfavorite");
  }

  async favorites(
    actor: Actor,
    query: { libraryId?: string; storyId?: string; type?: string; page: number; size: number },
  ): Promise<{ content: FavoriteView[]; total: number }> {
    if (query.libraryId) await this.deps.libraries.require(actor, query.libraryId, "read");
    const libraryIds = query.libraryId ? [query.libraryId] : await this.deps.libraries.readableIds(actor);
    const { favorites, total } = await this.deps.links.favorites(
      actor.id,
      { libraryIds, storyId: query.storyId, type: query.type },
      query,
    );
    const views = await this.deps.queries.views(await this.deps.stories.findMany(favorites.map((f) => f.storyId)));
    const byId = new Map(views.map((view) => [view.id, view]));
    return { content: favorites.map((favorite) => ({ ...favorite, story: byId.get(favorite.storyId)! })), total };
  }

  // Relations

  /** Relations of a story to stories the caller can read (others are left out). */
  async relations(actor: Actor, libraryId: string, storyId: string): Promise<RelationView[]> {
    const story = await this.#readable(actor, libraryId, storyId);
    const relations = await this.deps.links.relations(story.id);
    const otherIds = relations.map((relation) =>
      relation.storyId === story.id ? relation.relatedStoryId : relation.storyId,
    );
    const others = await this.deps.stories.findMany(otherIds);
    const readable = new Set(await this.deps.libraries.readableIds(actor));
    const views = new Map(
      (await this.deps.queries.views(others.filter((other) => readable.has(other.libraryId)))).map((view) => [
        view.id,
        view,
      ]),
    );
    return relations.flatMap((relation) => {
      const outgoing = relation.storyId === story.id;
      const view = views.get(outgoing ? relation.relatedStoryId : relation.storyId);
      return view
        ? [
            {
              id: relation.id,
              type: relation.type,
              direction: outgoing ? ("outgoing" as const) : ("incoming" as const),
              createdAt: relation.createdAt,
              story: view,
            },
          ]
        : [];
    });
  }

  async relate(
    actor: Actor,
    libraryId: string,
    storyId: string,
    input: { relatedLibraryId: string; relatedStoryId: string; type: RelationType },
  ): Promise<RelationView[]> {
    const story = await this.#readable(actor, libraryId, storyId);
    const related = await this.#readable(actor, input.relatedLibraryId, input.relatedStoryId, "relatedStoryId");
    if (related.id === story.id) throw new Invalid("relatedStoryId: a story cannot relate to itself");
    if (await this.deps.links.findRelation(story.id, related.id, input.type)) {
      throw new Conflict(`relatedStoryId: the stories are already ${input.type}`, "relation_exists");
    }
    await this.deps.links.addRelation(
      { storyId: story.id, relatedStoryId: related.id, type: input.type, createdAt: this.#now().toISOString() },
      actor.id,
    );
    await this.#record(actor, story, "relate", { type: input.type, libraryId: related.libraryId, storyId: related.id });
    return this.relations(actor, libraryId, storyId);
  }

  async unrelate(actor: Actor, libraryId: string, storyId: string, relationId: string): Promise<void> {
    const story = await this.#readable(actor, libraryId, storyId);
    const removed = await this.deps.links.removeRelation(relationId, story.id);
    if (!removed) throw new NotFound(`relation ${relationId} is not one of story ${storyId}`);
    await this.#record(actor, story, "unrelate", { relationId, type: removed.type });
  }

  // Publishing and sharing (first versions; the publishing issue adds channels and delivery)

  async publish(
    actor: Actor,
    libraryId: string,
    storyId: string,
    input: { channel?: string | null; note?: string | null },
  ): Promise<PublishRecord> {
    const story = await this.#readable(actor, libraryId, storyId);
    if (story.status === "draft") throw new Conflict("a draft is committed before it is published", "not_committed");
    const now = this.#now().toISOString();
    return this.deps.db.kysely.transaction().execute(async (trx) => {
      const record = await this.deps.links.with(trx).addPublishRecord({
        libraryId: story.libraryId,
        storyId: story.id,
        versionNo: story.versionNo,
        channel: input.channel ?? null,
        note: input.note ?? null,
        status: "published",
        publishedBy: actor.id,
        publishedAt: now,
      });
      await this.deps.stories
        .with(trx)
        .update(story.id, { status: "published", updated_by: actor.id, updated_at: now });
      await this.deps.actions.with(trx).record(
        {
          libraryId: story.libraryId,
          storyId: story.id,
          userId: actor.id,
          username: actor.username,
          action: "publish",
          ip: actor.ip,
          details: { recordId: record.id, channel: record.channel, versionNo: record.versionNo },
        },
        now,
      );
      return record;
    });
  }

  /** A new share token (32 random bytes, base64url); only its sha256 is stored. */
  async share(actor: Actor, libraryId: string, storyId: string, days: number): Promise<ShareGrant> {
    const story = await this.#readable(actor, libraryId, storyId);
    const token = randomBytes(32).toString("base64url");
    const now = this.#now();
    const expiresAt = new Date(now.getTime() + days * 86_400_000).toISOString();
    const shareId = await this.deps.links.addShare({
      tokenHash: hashShareToken(token),
      libraryId: story.libraryId,
      storyId: story.id,
      createdBy: actor.id,
      createdAt: now.toISOString(),
      expiresAt,
    });
    await this.#record(actor, story, "share", { shareId, expiresAt });
    return { token, url: `/share/storyPreview?token=${token}`, expiresAt };
  }

  /** The story a share token opens while it is valid (for the share pages). */
  async resolveShare(token: string): Promise<{ libraryId: string; storyId: string } | undefined> {
    return this.deps.links.activeShare(hashShareToken(token), this.#now().toISOString());
  }

  // Default library

  async defaultLibrary(actor: Actor): Promise<DefaultLibrary> {
    const settings = await this.deps.links.settings(actor.id);
    if (settings?.defaultLibraryId && (await this.deps.libraries.canRead(actor, settings.defaultLibraryId))) {
      return toDefault(settings.defaultLibraryId, settings.defaultFolderId);
    }
    const readable = await this.deps.libraries.readableIds(actor);
    const libraryId = readable.includes(DEFAULT_LIBRARY_ID) ? DEFAULT_LIBRARY_ID : (readable[0] ?? DEFAULT_LIBRARY_ID);
    return toDefault(libraryId, null);
  }

  /** The default library of a user given by id (the upload sink knows only the id). */
  async defaultLibraryFor(userId: string): Promise<DefaultLibrary> {
    const user = await this.deps.stories.loadUser(userId);
    if (!user) throw new Forbidden("the account does not exist or is disabled");
    return this.defaultLibrary({ ...user, ip: null });
  }

  /** Saves `path` (`/frontend/{library}[/{folderId}]` or `{library}[/{folderId}]`) as the user's default. */
  async setDefaultLibrary(actor: Actor, path: string): Promise<DefaultLibrary> {
    const parts = path
      .replace(/^\/?(frontend\/)?/, "")
      .split("/")
      .filter(Boolean);
    if (parts.length < 1 || parts.length > 2)
      throw new Invalid("path: give /frontend/{library} or /frontend/{library}/{folderId}");
    const [libraryId, folderId] = parts as [string, string | undefined];
    if (folderId && !UUID.test(folderId)) throw new NotFound(`path: folder ${folderId} is not in library ${libraryId}`);
    await this.deps.libraries.require(actor, libraryId, "read");
    if (folderId) await this.deps.folders.require(libraryId, folderId, "path");
    await this.deps.links.saveSettings(
      actor.id,
      { defaultLibraryId: libraryId, defaultFolderId: folderId ?? null },
      this.#now().toISOString(),
    );
    return toDefault(libraryId, folderId ?? null);
  }

  // Story actions

  async storyActions(actor: Actor, query: { libraryId: string; storyId: string; page: number; size: number }) {
    await this.deps.libraries.require(actor, query.libraryId, "read");
    return this.deps.queries.actions(query.libraryId, query.storyId, query);
  }
}

function toDefault(libraryId: string, folderId: string | null): DefaultLibrary {
  return { libraryId, folderId, path: `/frontend/${libraryId}${folderId ? `/${folderId}` : ""}` };
}

export interface CreateForm {
  type: string;
  libraryId: string;
  libraryName: string;
  folderId: string | null;
  folderPath: { id: string; name: string }[];
  writable: boolean;
  uploadPath: string;
}

/** The default library of a new video (spec section 3); photos and audio go to the user's default library. */
export const DEFAULT_VIDEO_LIBRARY_ID = "material";

/** What the create form needs: the target library and folder, defaults filled in. */
export async function createForm(
  links: StoryLinksService,
  libraries: LibrariesService,
  folders: FoldersService,
  actor: Actor,
  type: Story["type"],
  query: { libraryId?: string; folderId?: string },
): Promise<CreateForm> {
  let libraryId = query.libraryId;
  let folderId = query.folderId ?? null;
  if (!libraryId) {
    const preferred = await links.defaultLibrary(actor);
    const videoDefault = type === "video" && (await libraries.canRead(actor, DEFAULT_VIDEO_LIBRARY_ID));
    libraryId = videoDefault ? DEFAULT_VIDEO_LIBRARY_ID : preferred.libraryId;
    folderId = videoDefault ? null : preferred.folderId;
  }
  const library = await libraries.require(actor, libraryId, "read");
  const folderPath = folderId ? await folders.path(libraryId, (await folders.require(libraryId, folderId)).id) : [];
  const level = (await libraries.readable(actor)).find((candidate) => candidate.id === libraryId)?.level;
  return {
    type,
    libraryId,
    libraryName: library.name,
    folderId,
    folderPath: folderPath.map((folder) => ({ id: folder.id, name: folder.name })),
    writable: level === "write" || level === "manage",
    uploadPath: "/dams/api/v1/uploads",
  };
}
