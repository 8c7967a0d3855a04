import { type JobHandler, jobFailed, jobSkipped, jobSucceeded } from "../jobs/job-types.js";
import { type RenderJobDependencies, runRender } from "./render.job.js";

/**
 * The render as a durable job: a failure that will not pass (a source that
 * does not decode, an EDL its sources cannot satisfy) ends it dead with its
 * reason; a timeout or a missing tool is retried.
 */
export function videoRenderJob(
  deps: RenderJobDependencies,
  options: { timeoutMs: number },
): JobHandler<"video-edit.render"> {
  return {
    name: "video-edit.render",
    maxAttempts: 3,
    timeoutMs: options.timeoutMs,
    async run({ renderId }, { signal, progress }) {
      const result = await runRender(deps, renderId, { signal, progress });
      if (result.outcome === "failed") return jobFailed(result.reason, { retry: result.retry });
      return result.outcome === "skipped" ? jobSkipped(result.reason) : jobSucceeded;
    },
  };
}
