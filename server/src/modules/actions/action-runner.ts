import { randomUUID } from "node:crypto";
import type { JobEnqueuer, JobHandler, JobRegistrar } from "../jobs/job-types.js";
import { jobSkipped, jobSucceeded } from "../jobs/job-types.js";
import type { Actor, Story } from "../stories/story-types.js";
import { asRuleRun } from "./action-triggers.js";
import type { ActionsRepository, RunRecord } from "./actions.repository.js";
import type { StepResult } from "./actions.schema.js";
import { meetsConditions } from "./rule-conditions.js";
import { runStep, type StepServices, stepFailure } from "./rule-steps.js";

/** The run job's wall-clock limit. */
export const ACTION_RUN_TIMEOUT_MS = 5 * 60_000;
/**
 * The time a run's steps share: the limit less a margin for recording the
 * outcome. Webhook calls and their waits are cut to what is left of it, so a
 * rule with several slow webhooks fails with a reason instead of being
 * stopped by the job's timeout (docs/actions.md).
 */
export const ACTION_RUN_BUDGET_MS = ACTION_RUN_TIMEOUT_MS - 15_000;

export interface RunnerDependencies {
  rules: ActionsRepository;
  jobs: JobEnqueuer;
  /** Stories by id, whatever their library (the stories module's StoryQueries.findMany). */
  stories: { findMany(ids: string[]): Promise<Story[]> };
  /** The enabled account a rule acts as (the users module's UsersService.enabledUser). */
  users: { enabledUser(id: string): Promise<Omit<Actor, "ip"> | undefined> };
  steps: StepServices;
  clock?: () => Date;
  log?: { warn(object: object, message: string): void };
}

/**
 * The two jobs of automation. "actions.evaluate" matches one story event
 * against the enabled rules of its trigger and records a queued run (and
 * its job) per matched rule, in one transaction; "actions.run" takes a
 * run's steps in order as the rule's owner and records each step's outcome,
 * the error and the duration. A failing step ends the run failed with its
 * reason; the run is not retried (it is visible on the rule's runs).
 */
export class ActionRunner {
  constructor(private readonly deps: RunnerDependencies) {}

  #now(): Date {
    return this.deps.clock?.() ?? new Date();
  }

  register(jobs: JobRegistrar): void {
    jobs.register(this.evaluateHandler());
    jobs.register(this.runHandler());
  }

  evaluateHandler(): JobHandler<"actions.evaluate"> {
    return {
      name: "actions.evaluate",
      maxAttempts: 5,
      timeoutMs: 60_000,
      run: async (event) => {
        const [story] = await this.deps.stories.findMany([event.storyId]);
        if (!story) return jobSkipped(`story ${event.storyId} no longer exists`);
        const rules = (await this.deps.rules.enabledRules(event.kind)).filter(
          (rule) => !event.chain.includes(rule.id) && meetsConditions(rule.conditions, story, event.tags),
        );
        for (const rule of rules) {
          const run: RunRecord = {
            id: randomUUID(),
            ruleId: rule.id,
            eventId: event.eventId,
            trigger: event.kind,
            libraryId: story.libraryId,
            storyId: story.id,
            storyTitle: story.title,
            state: "queued",
            steps: [],
            error: null,
            jobId: null,
            startedAt: null,
            finishedAt: null,
            durationMs: null,
            createdAt: this.#now().toISOString(),
          };
          // A second attempt of this job finds the runs the first one recorded and adds none.
          await this.deps.rules.transaction(async (trx, rules) => {
            if (!(await rules.insertRun(run))) return;
            const jobId = await this.deps.jobs.enqueue(
              "actions.run",
              { runId: run.id, chain: event.chain },
              { transaction: trx },
            );
            await rules.setRunJob(run.id, jobId);
          });
        }
        return jobSucceeded;
      },
    };
  }

  runHandler(): JobHandler<"actions.run"> {
    return {
      name: "actions.run",
      // One attempt: a run's steps are not idempotent (a publish twice is two deliveries); its failure is recorded.
      maxAttempts: 1,
      timeoutMs: ACTION_RUN_TIMEOUT_MS,
      run: async ({ runId, chain }, { signal }) => {
        const run = await this.deps.rules.findRun(runId);
        if (!run) return jobSkipped(`run ${runId} no longer exists`);
        if (run.state !== "queued") return jobSkipped(`run ${runId} is already ${run.state}`);
        const started = Date.now();
        await this.deps.rules.startRun(run.id, this.#now().toISOString());
        const { steps, error } = await this.#steps(run, chain, signal, started + ACTION_RUN_BUDGET_MS);
        await this.deps.rules.finishRun(run.id, {
          state: error === null ? "succeeded" : "failed",
          steps,
          error,
          finishedAt: this.#now().toISOString(),
          durationMs: Date.now() - started,
        });
        if (error !== null) this.deps.log?.warn({ runId: run.id, ruleId: run.ruleId, error }, "an action run failed");
        return jobSucceeded;
      },
    };
  }

  async #steps(
    run: RunRecord,
    chain: string[],
    signal: AbortSignal,
    deadline: number,
  ): Promise<{ steps: StepResult[]; error: string | null }> {
    const rule = await this.deps.rules.findRule(run.ruleId);
    if (!rule) return { steps: [], error: "the rule was deleted before it ran" };
    const owner = await this.deps.users.enabledUser(rule.ownerId);
    if (!owner) return { steps: [], error: `the rule's owner (${rule.ownerId}) is disabled or deleted` };
    const [story] = await this.deps.stories.findMany([run.storyId]);
    if (!story) return { steps: [], error: `story ${run.storyId} no longer exists` };
    const actor: Actor = { ...owner, ip: null };
    const results: StepResult[] = [];
    const context = {
      actor,
      story,
      rule: { id: rule.id, name: rule.name },
      runId: run.id,
      trigger: run.trigger,
      signal,
      now: () => this.#now(),
      deadline,
    };
    for (const [index, step] of rule.steps.entries()) {
      try {
        const outcome = await asRuleRun(chain, rule.id, () => runStep(step, context, this.deps.steps));
        results.push({ kind: step.kind, ok: true, ...outcome });
      } catch (error) {
        const failure = stepFailure(step, error);
        results.push(failure);
        return { steps: results, error: `step ${index + 1} (${step.kind}): ${failure.detail}` };
      }
    }
    return { steps: results, error: null };
  }
}
