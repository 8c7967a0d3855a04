import { type JobHandler, type JobResult, jobSkipped, jobSucceeded } from "../jobs/job-types.js";
import type { ProcessingRepair } from "./processing-repair.js";
import type { StoryMediaProcessor } from "./story-media.processor.js";

/**
 * The handler of "stories.process", which stories enqueue on an upload, a
 * commit, a new version and a re-transcode (one story per job since migration
 * 0011; older jobs may name several): each story in turn, the first failure
 * ends the attempt; skipped when every story was. When the job is dead its
 * stories say processing failed (ProcessingRepair), whoever ended it.
 */
export function processStoriesJob(
  processor: Pick<StoryMediaProcessor, "process">,
  options: { timeoutMs: number; repair?: Pick<ProcessingRepair, "settle"> },
): JobHandler<"stories.process"> {
  return {
    name: "stories.process",
    maxAttempts: 3,
    timeoutMs: options.timeoutMs,
    async run({ ids }, context) {
      const skipped: string[] = [];
      for (const id of ids) {
        const result: JobResult = await processor.process(id, context);
        if (result.outcome === "failed") return result;
        if (result.outcome === "skipped") skipped.push(result.reason);
      }
      return skipped.length === ids.length ? jobSkipped(skipped.join("; ")) : jobSucceeded;
    },
    // Dead (no attempt follows, e.g. its worker was killed on every one): its stories show processing failed.
    async onDead({ ids }, reason) {
      for (const id of ids) await options.repair?.settle(id, `processing failed: ${reason}`);
    },
  };
}
