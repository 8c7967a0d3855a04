import { randomUUID } from "node:crypto";
import { AppError, Invalid, NotFound } from "../../http/errors.js";
import type { Actor } from "../auth/actor.js";
import { hasPermission, type PermissionSet } from "../auth/permissions.js";
import type { JobContext, JobEnqueuer, JobHandler, JobResult } from "../jobs/job-types.js";
import { jobSkipped, jobSucceeded } from "../jobs/job-types.js";
import type { TemplateValues } from "../metadata-templates/metadata-templates.schema.js";
import { SEARCH_WINDOW } from "../search/search.schema.js";
import type { PropertyEditCheck } from "../stories/stories.dependencies.js";
import { StaleStory, type StoriesService } from "../stories/stories.service.js";
import type { StoryAccess } from "../stories/story-access.js";
import { fieldChanges } from "../stories/story-metadata.js";
import type { Story } from "../stories/story-types.js";
import { batchEdit, type TemplateValuesOf } from "./story-batch.operations.js";
import type { BatchItemRow, BatchRow, StoryBatchRepository } from "./story-batch.repository.js";
import {
  BATCH_INLINE_MAX,
  BATCH_MAX_STORIES,
  type BatchInput,
  type BatchItemView,
  type BatchOperation,
  type BatchPreview,
  type BatchSearch,
  type BatchView,
} from "./story-batch.schema.js";

/** The job that runs a batch edit (job-names.ts). */
export const BATCH_EDIT_JOB = "stories.batch-edit" as const;
/** The permission a batch edit takes, as the single edit (story.list edit). */
export const BATCH_PERMISSION = { permission: "story.list", action: "edit" } as const;
/** Tries of one story when someone else saves it between the batch's read and its write. */
const STALE_TRIES = 3;

export interface StoryBatchDependencies {
  batches: StoryBatchRepository;
  stories: StoriesService;
  access: StoryAccess;
  /** The metadata templates' values for a user and library, variables replaced (MetadataTemplatesService.apply). */
  templates: {
    apply(actor: Actor, templateId: string, libraryId: string): Promise<TemplateValues>;
    exists(templateId: string): Promise<boolean>;
  };
  /** Field-level access (the access module's PropertyAccessService): the preview counts refusals as the edit makes them. */
  propertyAccess?: PropertyEditCheck;
  /** The account a job acts as (UsersService.enabledUser). */
  users: { enabledUser(id: string): Promise<Omit<Actor, "ip"> | undefined> };
  /** What a role allows (RolesService.permissionSet): a job checks the user may still edit stories. */
  rolePermissions: (roleId: string | null) => Promise<PermissionSet>;
  /** The search seam (StoryQueries.matchingIds): a batch of "all stories matching a search" is resolved at its start. */
  search: {
    matchingIds(
      actor: Actor,
      query: BatchSearch,
      max: number,
    ): Promise<{ ids: string[]; total: number; capped: boolean }>;
  };
  jobs: JobEnqueuer;
  clock?: () => Date;
  log?: { warn(object: object, message: string): void };
}

/** The template values of a story's library. */
type Resolver = (libraryId: string) => Promise<TemplateValuesOf>;

type Outcome =
  | { outcome: "changed"; story: Story; fields: string[] }
  | { outcome: "unchanged"; story: Story }
  | { outcome: "refused" | "failed"; story?: Story; reason: string; message: string };

/** Why a story is refused, as the report and the preview name it. */
function refusal(error: unknown): { reason: string; message: string } | undefined {
  if (error instanceof AppError && error.status < 500) return { reason: error.code, message: error.message };
  return undefined;
}

/**
 * Batch edits of story metadata (docs/stories.md, "Editing many stories"):
 * the operations of one request applied to each story of a selection through
 * the single edit (StoriesService.edit: the same permission checks, history
 * and search index), each story on its own — all or nothing per story — and
 * reported per story. A preview answers what each operation would touch.
 * Small selections run inside the request, larger ones as one durable job;
 * both run `run`.
 */
export class StoryBatchService {
  constructor(private readonly deps: StoryBatchDependencies) {}

  #now(): string {
    return (this.deps.clock?.() ?? new Date()).toISOString();
  }

  /** The template values of each template operation for a story's library, fetched once per library. */
  #templateResolver(actor: Actor, operations: readonly BatchOperation[]): Resolver {
    const templateIds = [
      ...new Set(operations.flatMap((operation) => (operation.op === "template" ? [operation.templateId] : []))),
    ];
    const byLibrary = new Map<string, Map<string, TemplateValues>>();
    return async (libraryId: string) => {
      let values = byLibrary.get(libraryId);
      if (!values) {
        values = new Map();
        for (const id of templateIds) values.set(id, await this.deps.templates.apply(actor, id, libraryId));
        byLibrary.set(libraryId, values);
      }
      const resolved = values;
      return (templateId: string) => resolved.get(templateId)!;
    };
  }

  /** The stories of a batch: the ids given, or those the search matches now (a snapshot). */
  async #storyIds(actor: Actor, input: BatchInput): Promise<string[]> {
    if (input.storyIds) return input.storyIds;
    const found = await this.deps.search.matchingIds(actor, input.search!, BATCH_MAX_STORIES);
    if (found.capped)
      throw new Invalid(
        `search.fulltext: more stories match than a full-text search looks at (the newest ${SEARCH_WINDOW}); narrow it with filters`,
        "too_many_stories",
      );
    if (found.total > BATCH_MAX_STORIES)
      throw new Invalid(
        `search: ${found.total} stories match; a batch edit takes at most ${BATCH_MAX_STORIES}`,
        "too_many_stories",
      );
    if (found.ids.length === 0) throw new Invalid("search: no story matches", "no_stories");
    return found.ids;
  }

  /** What the operations would do to each story, without changing any. */
  async preview(actor: Actor, input: BatchInput): Promise<BatchPreview> {
    const { operations } = input;
    // A template that does not exist is the request's mistake, not the stories'.
    await this.#checkTemplates(operations);
    const storyIds = await this.#storyIds(actor, input);
    const resolver = this.#templateResolver(actor, operations);
    const touches = operations.map(() => 0);
    const reasons = new Map<string, number>();
    let changed = 0;
    let unchanged = 0;
    for (const storyId of storyIds) {
      try {
        const story = await this.deps.access.forWriteById(actor, storyId);
        const values = await resolver(story.libraryId);
        const patch = batchEdit(story, operations, values);
        if (patch.properties) {
          await this.deps.propertyAccess?.checkEditable(actor, Object.keys(patch.properties));
          await this.deps.stories.checkEditedProperties(story, patch.properties);
        }
        if (fieldChanges(story, patch).length > 0) changed++;
        else unchanged++;
        operations.forEach((operation, index) => {
          if (fieldChanges(story, batchEdit(story, [operation], values)).length > 0) touches[index]!++;
        });
      } catch (error) {
        const refused = refusal(error);
        if (!refused) throw error;
        reasons.set(refused.reason, (reasons.get(refused.reason) ?? 0) + 1);
      }
    }
    const refusedReasons = [...reasons].map(([reason, count]) => ({ reason, count }));
    return {
      total: storyIds.length,
      changed,
      unchanged,
      refused: refusedReasons.reduce((sum, entry) => sum + entry.count, 0),
      refusedReasons,
      operations: touches.map((count, index) => ({ index, touches: count })),
    };
  }

  async #checkTemplates(operations: readonly BatchOperation[]): Promise<void> {
    for (const [index, operation] of operations.entries()) {
      if (operation.op === "template" && !(await this.deps.templates.exists(operation.templateId))) {
        throw new NotFound(`operations.${index}.templateId: no metadata template ${operation.templateId}`);
      }
    }
  }

  /**
   * Starts a batch edit: its report rows (every story pending), then the run —
   * inside the request for small selections, else as the durable job.
   */
  async start(actor: Actor, input: BatchInput): Promise<BatchView> {
    await this.#checkTemplates(input.operations);
    const storyIds = await this.#storyIds(actor, input);
    const id = randomUUID();
    await this.deps.batches.create(
      {
        id,
        user_id: actor.id,
        ip: actor.ip,
        operations: input.operations,
        state: "queued",
        total: storyIds.length,
        error: null,
        job_id: null,
        created_at: this.#now(),
        finished_at: null,
      },
      storyIds,
    );
    if (storyIds.length <= BATCH_INLINE_MAX) {
      await this.run(id, { actor });
    } else {
      const jobId = await this.deps.jobs.enqueue(BATCH_EDIT_JOB, { batchId: id });
      await this.deps.batches.setJob(id, jobId);
    }
    return this.get(actor, id);
  }

  /** The batch for its creator (or an administrator); others get 404. */
  async get(actor: Actor, id: string): Promise<BatchView> {
    const row = await this.#own(actor, id);
    return this.#view(row);
  }

  async items(
    actor: Actor,
    id: string,
    query: { outcome?: BatchItemView["outcome"]; page: number; size: number },
  ): Promise<{ content: BatchItemView[]; total: number }> {
    await this.#own(actor, id);
    const { rows, total } = await this.deps.batches.items(id, query);
    return {
      content: rows.map((row) => ({
        position: row.position,
        storyId: row.story_id,
        libraryId: row.library_id,
        title: row.title,
        outcome: row.outcome ?? "pending",
        reason: row.reason,
        message: row.message,
        fields: (row.fields as string[] | null) ?? [],
      })),
      total,
    };
  }

  async #own(actor: Actor, id: string): Promise<BatchRow> {
    const row = await this.deps.batches.find(id);
    if (!row || (row.user_id !== actor.id && !actor.admin)) throw new NotFound(`no batch edit ${id}`);
    return row;
  }

  async #view(row: BatchRow): Promise<BatchView> {
    const counts = await this.deps.batches.counts(row.id);
    const done = row.total - counts.pending;
    return {
      id: row.id,
      state: row.state,
      total: row.total,
      done,
      changed: counts.changed,
      unchanged: counts.unchanged,
      refused: counts.refused,
      failed: counts.failed,
      progress: row.total === 0 ? 100 : Math.floor((done * 100) / row.total),
      operations: row.operations as BatchOperation[],
      error: row.error,
      jobId: row.job_id,
      createdAt: row.created_at,
      finishedAt: row.finished_at,
    };
  }

  /**
   * Runs a batch: each pending story edited on its own and its outcome
   * written in the story's edit transaction (or alone, when nothing
   * changes), so a run after a crash takes up where the last one stopped.
   * `actor` is the request's when the batch runs inline; a job acts as the
   * batch's user, as they are now (a disabled user's batch fails).
   */
  async run(
    batchId: string,
    options: { actor?: Actor; progress?: JobContext["progress"]; signal?: AbortSignal } = {},
  ): Promise<JobResult> {
    const batch = await this.deps.batches.find(batchId);
    if (!batch) return jobSkipped(`batch edit ${batchId} is gone`);
    if (batch.state === "succeeded" || batch.state === "failed") return jobSkipped(`batch edit ${batchId} has run`);
    await this.deps.batches.setState(batchId, "running", null);
    const actor = options.actor ?? (await this.#actorOf(batch));
    const pending = await this.deps.batches.pending(batchId);
    if (!actor) {
      await this.deps.batches.setState(batchId, "failed", this.#now(), "the user is disabled or may no longer edit");
      for (const item of pending)
        await this.deps.batches.setOutcome(item, {
          outcome: "refused",
          reason: "forbidden",
          message: "the user is disabled or may no longer edit stories",
        });
      return jobSucceeded;
    }
    const operations = batch.operations as BatchOperation[];
    const resolver = this.#templateResolver(actor, operations);
    const done0 = batch.total - pending.length;
    for (const [index, item] of pending.entries()) {
      options.signal?.throwIfAborted();
      await this.#editOne(actor, item, operations, resolver);
      await options.progress?.(Math.floor(((done0 + index + 1) * 100) / Math.max(1, batch.total)));
    }
    await this.deps.batches.setState(batchId, "succeeded", this.#now());
    return jobSucceeded;
  }

  async #actorOf(batch: BatchRow): Promise<Actor | undefined> {
    const user = await this.deps.users.enabledUser(batch.user_id);
    if (!user) return undefined;
    const permissions = await this.deps.rolePermissions(user.roleId);
    if (!user.admin && !hasPermission(permissions, BATCH_PERMISSION.permission, BATCH_PERMISSION.action)) {
      return undefined;
    }
    return { ...user, permissions, ip: batch.ip };
  }

  async #editOne(actor: Actor, item: BatchItemRow, operations: BatchOperation[], resolver: Resolver): Promise<void> {
    const outcome = await this.#outcomeOf(actor, item, operations, resolver);
    if (outcome.outcome === "changed") return; // written in the edit's transaction
    await this.deps.batches.setOutcome(item, {
      outcome: outcome.outcome,
      libraryId: outcome.story?.libraryId ?? null,
      title: outcome.story?.title ?? null,
      ...(outcome.outcome === "unchanged" ? {} : { reason: outcome.reason, message: outcome.message }),
    });
  }

  async #outcomeOf(
    actor: Actor,
    item: BatchItemRow,
    operations: BatchOperation[],
    resolver: Resolver,
  ): Promise<Outcome> {
    let story: Story | undefined;
    for (let attempt = 1; ; attempt++) {
      try {
        story = await this.deps.access.forWriteById(actor, item.story_id);
        const patch = batchEdit(story, operations, await resolver(story.libraryId));
        if (fieldChanges(story, patch).length === 0) return { outcome: "unchanged", story };
        const edited = story;
        let fields: string[] = [];
        await this.deps.stories.edit(actor, story.type, story.libraryId, story.id, patch, {
          basedOn: story.revision,
          withinTransaction: async (trx, changes) => {
            fields = changes.map((change) => change.field);
            await this.deps.batches.with(trx).setOutcome(item, {
              outcome: "changed",
              libraryId: edited.libraryId,
              title: patch.title ?? edited.title,
              fields,
            });
          },
        });
        return { outcome: "changed", story, fields };
      } catch (error) {
        // Someone saved the story in between: read it again and apply the operations to what it is now.
        if (error instanceof StaleStory && attempt < STALE_TRIES) continue;
        const refused = refusal(error);
        if (refused) return { outcome: "refused", story, ...refused };
        this.deps.log?.warn({ err: error, storyId: item.story_id }, "a story of a batch edit failed");
        return {
          outcome: "failed",
          story,
          reason: "failed",
          message: error instanceof Error ? error.message : String(error),
        };
      }
    }
  }

  /** The job's handler: the batch run as its user, with progress. */
  job(): JobHandler<typeof BATCH_EDIT_JOB> {
    return {
      name: BATCH_EDIT_JOB,
      maxAttempts: 3,
      timeoutMs: 60 * 60_000,
      run: (payload, context) => this.run(payload.batchId, { progress: context.progress, signal: context.signal }),
      onDead: async (payload, reason) => {
        await this.deps.batches.setState(payload.batchId, "failed", this.#now(), reason);
      },
    };
  }
}
