import type { JobQueue } from "../jobs/job-queue.js";
import type { StoriesService } from "../stories/stories.service.js";

const PROCESS_JOB = "stories.process";
const PAGE = 500;

export type RepairStories = Pick<StoriesService, "storiesInProcessing" | "failStuckProcessing">;

/**
 * Makes a processing job's end reach its story when the job cannot say it
 * itself: a job that went dead because its worker was lost on every attempt
 * never ran the code that writes "failed". Told by the job system when the
 * job dies (`onDead` of "stories.process"), and run over every story at
 * start-up and in maintenance for what a crash left (a story saying queued or
 * running with no queued or running job): the story shows processing failed
 * with the reason, and may be processed again (re-transcode).
 */
export class ProcessingRepair {
  constructor(
    private readonly deps: {
      stories: RepairStories;
      jobs: Pick<JobQueue, "ofStory">;
    },
  ) {}

  /** The story's processing failed with `reason`, unless a job for it is still queued or running. */
  async settle(storyId: string, reason: string): Promise<boolean> {
    const active = await this.deps.jobs.ofStory(storyId, {
      name: PROCESS_JOB,
      states: ["queued", "running"],
      limit: 1,
    });
    if (active.length > 0) return false;
    return this.deps.stories.failStuckProcessing(storyId, reason);
  }

  /** Every story saying queued or running whose job is dead, cancelled or gone: failed with why. Returns their ids. */
  async repairAll(): Promise<string[]> {
    const repaired: string[] = [];
    let after: string | undefined;
    for (;;) {
      const ids = await this.deps.stories.storiesInProcessing(PAGE, after);
      for (const id of ids) {
        const [latest] = await this.deps.jobs.ofStory(id, { name: PROCESS_JOB, limit: 1 });
        const reason =
          latest?.state === "dead"
            ? `its processing job is dead: ${latest.lastError ?? "no reason recorded"}`
            : latest?.state === "cancelled"
              ? "its processing job was cancelled"
              : latest?.state === "succeeded"
                ? "its processing job ended without writing a result"
                : "its processing job is gone";
        if (latest?.state === "queued" || latest?.state === "running") continue;
        if (await this.settle(id, reason)) repaired.push(id);
      }
      if (ids.length < PAGE) break;
      after = ids[ids.length - 1];
    }
    return repaired;
  }
}
