import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import type { JobEnqueuer } from "../jobs/job-types.js";
import type { StoryEvent, StoryEventSink } from "../stories/story-events.js";
import type { ActionsRepository } from "./actions.repository.js";

/** Rules a change made by a run descends from: a rule never reacts to what it (or its ancestors) did. */
const MAX_CHAIN = 3;
const runChain = new AsyncLocalStorage<string[]>();

/** Runs `work` as rule `ruleId`'s run: story events it causes carry the chain of rules behind them. */
export function asRuleRun<T>(chain: string[], ruleId: string, work: () => Promise<T>): Promise<T> {
  return runChain.run([...chain, ruleId], work);
}

/** The payload of an evaluation job: the event, its id (one run per rule and event) and the rules behind it. */
export interface EvaluationPayload {
  eventId: string;
  kind: StoryEvent["kind"];
  libraryId: string;
  storyId: string;
  actorId: string | null;
  tags?: string[];
  chain: string[];
}

/**
 * The stories' event sink: in the transaction of the commit, publish or
 * tagging, one "actions.evaluate" job per event when an enabled rule has its
 * trigger. The job row is the outbox: it exists exactly when the change
 * does, and rules run in a worker, never in the request.
 */
export class ActionTriggers implements StoryEventSink {
  constructor(
    private readonly rules: ActionsRepository,
    private readonly jobs: JobEnqueuer,
  ) {}

  async record(transaction: Kysely<Database>, events: StoryEvent[]): Promise<void> {
    const chain = runChain.getStore() ?? [];
    if (chain.length >= MAX_CHAIN) return;
    const rules = this.rules.with(transaction);
    const wanted = new Map<string, boolean>();
    for (const event of events) {
      if (!wanted.has(event.kind)) wanted.set(event.kind, await rules.anyEnabled(event.kind));
      if (!wanted.get(event.kind)) continue;
      const payload: EvaluationPayload = {
        eventId: randomUUID(),
        kind: event.kind,
        libraryId: event.libraryId,
        storyId: event.storyId,
        actorId: event.actorId,
        ...(event.tags ? { tags: event.tags } : {}),
        chain,
      };
      await this.jobs.enqueue("actions.evaluate", payload, { transaction });
    }
  }
}
