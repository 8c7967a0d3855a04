import { Conflict, Invalid, NotFound } from "../../http/errors.js";
import type { Actor } from "../auth/actor.js";
import type { LibrariesService } from "../libraries/libraries.service.js";
import type { StoryAccess } from "../stories/story-access.js";
import { storyAction } from "../stories/story-action.js";
import type { StoryActionLog } from "../stories/story-actions.service.js";
import type { StoryQueries } from "../stories/story-queries.service.js";
import type { StoryView } from "../stories/story-view.js";
import type { RelationsRepository } from "./relations.repository.js";
import type { RelationType } from "./relations.schema.js";

export interface RelationView {
  id: string;
  type: string;
  /** `outgoing` when this story named the other, `incoming` when the other named it. */
  direction: "outgoing" | "incoming";
  createdAt: string;
  story: StoryView;
}

export interface RelationsDependencies {
  relations: RelationsRepository;
  access: StoryAccess;
  queries: StoryQueries;
  libraries: LibrariesService;
  actions: StoryActionLog;
  clock?: () => Date;
}

/** Relations between stories (related, derived, same event), shown to those who can read both. */
export class RelationsService {
  constructor(private readonly deps: RelationsDependencies) {}

  /** Relations of a story to stories the caller can read (others are left out). */
  async list(actor: Actor, libraryId: string, storyId: string): Promise<RelationView[]> {
    const story = await this.deps.access.forRead(actor, libraryId, storyId, "storyId");
    const relations = await this.deps.relations.ofStory(story.id);
    const other = (relation: { storyId: string; relatedStoryId: string }) =>
      relation.storyId === story.id ? relation.relatedStoryId : relation.storyId;
    const others = await this.deps.queries.findMany(relations.map(other));
    const readable = new Set(await this.deps.libraries.readableIds(actor));
    const views = new Map(
      (await this.deps.queries.views(others.filter((found) => readable.has(found.libraryId)))).map((view) => [
        view.id,
        view,
      ]),
    );
    return relations.flatMap((relation) => {
      const view = views.get(other(relation));
      if (!view) return [];
      const direction = relation.storyId === story.id ? ("outgoing" as const) : ("incoming" as const);
      return [{ id: relation.id, type: relation.type, direction, createdAt: relation.createdAt, story: view }];
    });
  }

  async relate(
    actor: Actor,
    libraryId: string,
    storyId: string,
    input: { relatedLibraryId: string; relatedStoryId: string; type: RelationType },
  ): Promise<RelationView[]> {
    const story = await this.deps.access.forWrite(actor, libraryId, storyId, "storyId");
    const related = await this.deps.access.forRead(
      actor,
      input.relatedLibraryId,
      input.relatedStoryId,
      "relatedStoryId",
    );
    // The other end changes too (its relations list): someone else's draft stays out of reach.
    await this.deps.access.assertMayChange(actor, related, "relatedStoryId");
    if (related.id === story.id) throw new Invalid("relatedStoryId: a story cannot relate to itself");
    if (await this.deps.relations.find(story.id, related.id, input.type)) {
      throw new Conflict(`relatedStoryId: the stories are already ${input.type}`, "relation_exists");
    }
    const createdAt = (this.deps.clock?.() ?? new Date()).toISOString();
    await this.deps.relations.add(
      { storyId: story.id, relatedStoryId: related.id, type: input.type, createdAt },
      actor.id,
    );
    await this.deps.actions.record(
      [storyAction(actor, story, "relate", { type: input.type, libraryId: related.libraryId, storyId: related.id })],
      { at: createdAt },
    );
    return this.list(actor, libraryId, storyId);
  }

  async unrelate(actor: Actor, libraryId: string, storyId: string, relationId: string): Promise<void> {
    const story = await this.deps.access.forWrite(actor, libraryId, storyId, "storyId");
    const relation = (await this.deps.relations.ofStory(story.id)).find((candidate) => candidate.id === relationId);
    if (!relation) throw new NotFound(`relation ${relationId} is not one of story ${storyId}`);
    // The other end changes too (its relations list), as in relate: someone else's draft stays out of reach.
    const otherId = relation.storyId === story.id ? relation.relatedStoryId : relation.storyId;
    const [other] = await this.deps.queries.findMany([otherId]);
    if (other) await this.deps.access.assertMayChange(actor, other, "relationId");
    const removed = await this.deps.relations.remove(relationId, story.id);
    if (!removed) throw new NotFound(`relation ${relationId} is not one of story ${storyId}`);
    await this.deps.actions.record([storyAction(actor, story, "unrelate", { relationId, type: removed.type })]);
  }
}
