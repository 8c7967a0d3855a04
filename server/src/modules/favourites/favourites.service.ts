import { NotFound } from "../../http/errors.js";
import type { Actor } from "../auth/actor.js";
import type { LibrariesService } from "../libraries/libraries.service.js";
import type { StoryAccess } from "../stories/story-access.js";
import { storyAction } from "../stories/story-action.js";
import type { StoryActionLog } from "../stories/story-actions.service.js";
import type { StoryQueries } from "../stories/story-queries.service.js";
import type { StoryView } from "../stories/story-view.js";
import type { FavouritesRepository } from "./favourites.repository.js";

export interface FavoriteView {
  libraryId: string;
  storyId: string;
  type: string;
  createdAt: string;
  story: StoryView;
}

export interface FavouritesDependencies {
  favourites: FavouritesRepository;
  access: StoryAccess;
  queries: StoryQueries;
  libraries: LibrariesService;
  actions: StoryActionLog;
  clock?: () => Date;
}

/** A user's favourite stories, among those they can read. */
export class FavouritesService {
  constructor(private readonly deps: FavouritesDependencies) {}

  async add(actor: Actor, input: { libraryId: string; storyId: string; type?: string }): Promise<FavoriteView> {
    const story = await this.deps.access.forRead(actor, input.libraryId, input.storyId, "storyId");
    const createdAt = (this.deps.clock?.() ?? new Date()).toISOString();
    const type = input.type ?? story.type;
    if (await this.deps.favourites.add(actor.id, { libraryId: story.libraryId, storyId: story.id, type, createdAt })) {
      await this.deps.actions.record([storyAction(actor, story, "favorite", { type })], { at: createdAt });
    }
    const [view] = await this.deps.queries.views([story]);
    return { libraryId: story.libraryId, storyId: story.id, type, createdAt, story: view! };
  }

  async remove(actor: Actor, input: { libraryId: string; storyId: string }): Promise<void> {
    const story = await this.deps.access.forRead(actor, input.libraryId, input.storyId, "storyId");
    if (!(await this.deps.favourites.remove(actor.id, story.id))) {
      throw new NotFound(`storyId: story ${story.id} is not a favourite`);
    }
    await this.deps.actions.record([storyAction(actor, story, "unfavorite")]);
  }

  async list(
    actor: Actor,
    query: { libraryId?: string; storyId?: string; type?: string; page: number; size: number },
  ): Promise<{ content: FavoriteView[]; total: number }> {
    if (query.libraryId) await this.deps.libraries.require(actor, query.libraryId, "read");
    const libraryIds = query.libraryId ? [query.libraryId] : await this.deps.libraries.readableIds(actor);
    const { favorites, total } = await this.deps.favourites.list(
      actor.id,
      { libraryIds, storyId: query.storyId, type: query.type },
      query,
    );
    const stories = await this.deps.queries.findMany(favorites.map((favorite) => favorite.storyId));
    const byId = new Map((await this.deps.queries.views(stories)).map((view) => [view.id, view]));
    return { content: favorites.map((favorite) => ({ ...favorite, story: byId.get(favorite.storyId)! })), total };
  }
}
