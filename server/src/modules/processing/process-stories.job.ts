import type { JobDefinition } from "../jobs/job-types.js";
import { PROCESS_STORIES_JOB } from "../stories/stories.compose.js";
import type { ProcessStoriesPayload } from "../stories/story-write-support.js";
import type { StoryMediaProcessor } from "./story-media.processor.js";

/**
 * The job stories enqueue on commit (and on a new version or a re-transcode):
 * renders each story in turn. The processor is handed over late because the
 * stories service needs this definition before the processor can be built.
 */
export function processStoriesJob(
  processor: () => StoryMediaProcessor,
  options: { timeoutMs: number },
): JobDefinition<ProcessStoriesPayload> {
  return {
    name: PROCESS_STORIES_JOB,
    maxAttempts: 3,
    timeoutMs: options.timeoutMs,
    async run(payload, context) {
      for (const id of payload.ids) await processor().process(id, context);
    },
  };
}
