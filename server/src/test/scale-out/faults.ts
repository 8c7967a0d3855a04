import { expect } from "vitest";
import { startGateway, stopGateway } from "../../../../scripts/ceph-rgw.mjs";
import { eventually } from "../eventually.js";
import { acrossProcesses, type Cluster, call, uploadWhole } from "./cluster.js";
import { photos } from "./media-files.js";

function sleepUntil(at: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, at - Date.now())));
}

interface JobRow {
  state: string;
  attempts: number;
  last_error: string | null;
}

/**
 * The S3 gateway stopped for `seconds`: uploads and downloads answer 503 with
 * a message that says so, a job that needs the storage fails an attempt and
 * is retried; when the gateway is back, everything works again without a
 * restart of any dams process.
 */
export async function rgwOutage(
  cluster: Cluster,
  token: string,
  shared: { libraryId: string; storyId: string; mediaPath: string },
  seconds: number,
) {
  const { dir } = cluster.topology.rgw;
  const nodeB = cluster.node("api-b").url;
  const [photo] = photos(1);
  await stopGateway(dir);
  const stoppedAt = Date.now();

  const upload = await uploadWhole(cluster.lb, token, photo!, { filename: "during-outage.jpg", libraryId: "product" });
  expect(upload.status).toBe(503);
  expect(upload.body).toMatchObject({
    code: 503,
    error: "storage_unavailable",
    msg: "The media storage cannot be reached at the moment; try again shortly.",
    msgCode: "storage.unavailable",
  });
  const download = await fetch(`${nodeB}${shared.mediaPath}`);
  expect(download.status).toBe(503);
  expect(await download.json()).toMatchObject({ error: "storage_unavailable" });

  // A job that needs the storage, started shortly before it returns: its first attempt fails, a retry succeeds.
  await sleepUntil(stoppedAt + (seconds - 5) * 1000);
  const task = await call<{ jobId: string }>(cluster.lb, token, "/upload-files/re-transcode", {
    method: "POST",
    body: { libraryId: shared.libraryId, storyId: shared.storyId },
  });
  expect(task.status, JSON.stringify(task.body)).toBe(200);
  const job = async () =>
    (
      await cluster.query<JobRow>("select state, attempts, last_error from jobs where id = $1", [task.body.data.jobId])
    )[0]!;
  const failed = await eventually(job, (row) => row.attempts >= 1 && row.last_error !== null, {
    ...acrossProcesses,
    what: "a failed attempt of the job",
    limitMs: 60_000,
  });

  await sleepUntil(stoppedAt + seconds * 1000);
  await startGateway(dir);
  const downFor = (Date.now() - stoppedAt) / 1000;
  const backAt = Date.now();

  const retried = await eventually(
    () => uploadWhole(cluster.lb, token, photo!, { filename: "after-outage.jpg", libraryId: "product" }),
    (answer) => answer.status === 201,
    { ...acrossProcesses, what: "the upload accepted again", limitMs: 60_000 },
  );
  const firstUploadAfter = (Date.now() - backAt) / 1000;
  expect(retried.status).toBe(201);
  expect((await fetch(`${nodeB}${shared.mediaPath}`)).status).toBe(200);
  const done = await eventually(job, (row) => ["succeeded", "dead"].includes(row.state), {
    ...acrossProcesses,
    what: "the job retried to success",
    limitMs: 120_000,
  });
  expect(done.state).toBe("succeeded");
  expect(done.attempts).toBeGreaterThanOrEqual(2);
  return {
    gatewayDownSeconds: Math.round(downFor),
    whileDown: { upload: upload.status, download: download.status, jobAttemptError: failed.last_error },
    afterReturn: { uploadAcceptedAfterSeconds: Math.round(firstUploadAfter * 10) / 10, jobAttempts: done.attempts },
  };
}

/** A fast restart of PostgreSQL: every API node and worker carries on without a restart of its own. */
export async function postgresRestart(cluster: Cluster, token: string) {
  const processes = [...cluster.topology.api, ...cluster.topology.workers];
  const pids = processes.map((process) => process.pid);
  const restartedAt = Date.now();
  cluster.topology.postgres.restart();
  const recovered: Record<string, number> = {};
  for (const node of cluster.topology.api) {
    await eventually(
      () => call(node.url!, token, "/users/login/user"),
      (answer) => answer.status === 200,
      { ...acrossProcesses, what: `${node.name} answering after the restart`, limitMs: 60_000 },
    );
    recovered[node.name] = Math.round((Date.now() - restartedAt) / 100) / 10;
  }
  const [photo] = photos(1);
  const uploaded = await eventually(
    () => uploadWhole(cluster.lb, token, photo!, { filename: "after-restart.jpg", libraryId: "product" }),
    (answer) => answer.status === 201,
    { ...acrossProcesses, what: "an upload after the restart", limitMs: 60_000 },
  );
  const storyId = uploaded.body.data!.result.storyId;
  await eventually(
    () => cluster.query<JobRow>("select state, attempts, last_error from jobs where story_id = $1", [storyId]),
    (rows) => rows.length > 0 && rows.every((row) => row.state === "succeeded"),
    { ...acrossProcesses, what: "its job done by a worker", limitMs: 120_000 },
  );
  // The same processes: none was restarted, none died.
  expect(processes.map((process) => process.pid)).toEqual(pids);
  for (const process of processes) expect(process.log()).not.toMatch(/"level":60/);
  return { answeringAgainAfterSeconds: recovered, newUploadProcessed: true, processesRestarted: 0 };
}
