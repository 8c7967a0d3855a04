import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import type { LibrariesService } from "../libraries/libraries.service.js";
import type { NewStoryAction, StoryActionRecord, StoryActionsRepository } from "./story-actions.repository.js";
import type { Actor } from "./story-types.js";

/**
 * The story action trail, for the modules that hang off stories
 * (favourites, relations, shares, downloads, the catalogue's merge): they
 * record what happened to a story here, built with `storyAction`.
 */
export class StoryActionLog {
  constructor(
    private readonly actions: StoryActionsRepository,
    private readonly libraries: LibrariesService,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** Records the actions, all or none, at `at` (default now), in `transaction` when given. */
  async record(
    actions: NewStoryAction[],
    options: { at?: string; transaction?: Kysely<Database> } = {},
  ): Promise<void> {
    const repository = options.transaction ? this.actions.with(options.transaction) : this.actions;
    await repository.recordMany(actions, options.at ?? this.clock().toISOString());
  }

  /** What happened to a story, newest first. The trail outlives the story: it is looked up by library and id alone. */
  async list(
    actor: Actor,
    query: { libraryId: string; storyId: string; page: number; size: number },
  ): Promise<{ content: StoryActionRecord[]; total: number }> {
    await this.libraries.require(actor, query.libraryId, "read");
    const { actions, total } = await this.actions.list(query.libraryId, query.storyId, query);
    return { content: actions, total };
  }
}
