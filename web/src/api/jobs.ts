/** The job queue as the task monitor sees it: counts, jobs, workers (calls, query keys, hooks). */
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { api, call } from "./client";
import type { PageOf } from "./paging";
import { useRefreshingWrite } from "./refreshing-write";
import type { components, paths } from "./schema";

export type Job = components["schemas"]["Job"];
export type JobState = Job["state"];
export type JobSummary = components["schemas"]["JobSummary"];
export type JobWorker = components["schemas"]["JobWorker"];
export type JobQuery = NonNullable<paths["/dams/api/v1/jobs"]["get"]["parameters"]["query"]>;

export const JOB_STATES: JobState[] = ["queued", "running", "succeeded", "dead", "cancelled"];

/** The monitor asks again this often while it is open (TanStack Query pauses it while the tab is hidden). */
export const JOB_POLL_MS = 3000;
/** The longest wait between two polls after failures. */
export const JOB_POLL_MAX_MS = 60_000;

/** The wait before the next poll: JOB_POLL_MS, doubled for each failed attempt of the last poll (the server down or refusing). */
export function jobPollInterval(failures: number): number {
  return failures <= 0 ? JOB_POLL_MS : Math.min(JOB_POLL_MS * 2 ** failures, JOB_POLL_MAX_MS);
}

/**
 * A query's refetchInterval: after a poll that failed (its `fetchFailureCount` attempts, retries
 * included, all failed) the next one waits longer; after one that succeeded, JOB_POLL_MS again.
 */
const poll = (query: { state: { fetchFailureCount: number } }) => jobPollInterval(query.state.fetchFailureCount);

export const jobKeys = {
  all: ["jobs"] as const,
  summary: () => [...jobKeys.all, "summary"] as const,
  workers: () => [...jobKeys.all, "workers"] as const,
  list: (query: JobQuery) => [...jobKeys.all, "list", query] as const,
};

export const fetchJobSummary = (): Promise<JobSummary> => call(api.GET("/dams/api/v1/jobs/summary"));
export const fetchJobWorkers = (): Promise<JobWorker[]> => call(api.GET("/dams/api/v1/jobs/workers"));
export const listJobs = (query: JobQuery): Promise<PageOf<Job>> =>
  call(api.GET("/dams/api/v1/jobs", { params: { query } })) as Promise<PageOf<Job>>;
export const retryJob = (id: string): Promise<Job> =>
  call(api.POST("/dams/api/v1/jobs/{id}/retry", { params: { path: { id } } }));
export const cancelJob = (id: string): Promise<Job> =>
  call(api.POST("/dams/api/v1/jobs/{id}/cancel", { params: { path: { id } } }));

// ---------------------------------------------------------------- hooks

export const useJobSummary = () =>
  useQuery({ queryKey: jobKeys.summary(), queryFn: fetchJobSummary, refetchInterval: poll });

export const useJobWorkers = () =>
  useQuery({ queryKey: jobKeys.workers(), queryFn: fetchJobWorkers, refetchInterval: poll });

export const useJobs = (query: JobQuery) =>
  useQuery({
    queryKey: jobKeys.list(query),
    queryFn: () => listJobs(query),
    refetchInterval: poll,
    placeholderData: keepPreviousData,
  });

/** Retry or cancel a job; either refreshes every job query. */
export const useJobAction = (action: "retry" | "cancel") =>
  useRefreshingWrite(jobKeys.all, action === "retry" ? retryJob : cancelJob);
