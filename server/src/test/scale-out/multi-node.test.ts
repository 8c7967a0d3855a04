import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as tus from "tus-js-client";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { readRgwState } from "../../../../scripts/ceph-rgw.mjs";
import { startTopology } from "../../../../scripts/scale-out.mjs";
import { eventually } from "../eventually.js";
import { API, acrossProcesses, Cluster, call, uploadWhole } from "./cluster.js";
import { postgresRestart, rgwOutage } from "./faults.js";
import { largeJpeg, photos, sha256, testVideo } from "./media-files.js";
import { refreshThrough, signInThrough } from "./sign-in.js";

/**
 * DESIGN.md section 5 on one machine: PostgreSQL + Ceph RGW + two
 * `dams serve --no-workers` behind HAProxy (round-robin, no stickiness) + two
 * `dams worker`. Each scenario names the node it acts through; the counts are
 * printed at the end. One topology for the whole file (it takes ~30 s to start).
 */
describe("several API and worker processes behind a load balancer", () => {
  let cluster: Cluster;
  let token: string;
  let scratch: string;
  const counts: Record<string, unknown> = {};
  const runId = Math.random().toString(36).slice(2, 8);
  const a = () => cluster.node("api-a");
  const b = () => cluster.node("api-b");

  beforeAll(async () => {
    const started = Date.now();
    // npm test's RGW when there is one (scripts/test.mjs names its directory), else one of its own.
    const rgwDir = process.env.DAMS_TEST_RGW_DIR;
    const topology = await startTopology({
      rgw: rgwDir ? (readRgwState(rgwDir) ?? undefined) : undefined,
      // Short leases: a killed worker's job is taken over within seconds (its lease renewed every 5 s). Not
      // shorter: at a load of 17–20 a live worker once missed a 5 s lease, and its job ran a second time.
      workerEnv: { DAMS_JOBS_LEASE_MS: "15000", DAMS_JOBS_POLL_MS: "500" },
      // Sign-ins kept a minute: a refusal on B within the waits below (30 s) comes from A's invalidation, not expiry.
      env: { DAMS_AUTH_CACHE_SECONDS: "60" },
    });
    cluster = new Cluster(topology);
    counts["topology started in s"] = Math.round((Date.now() - started) / 1000);
    token = cluster.adminToken();
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), "dams-multi-node-"));
  });

  // A failed scenario's answer says little (a 500 is "server error"): the processes' own errors say why.
  afterEach(({ task }) => {
    if (task.result?.state !== "fail" || !cluster) return;
    const errors = cluster.errorLines();
    process.stdout.write(`\n[multi-node] errors logged by the processes (${errors.length}):\n${errors.join("\n")}\n`);
  });

  afterAll(async () => {
    if (cluster) {
      counts["requests per API node"] = {
        total: Object.fromEntries(
          cluster.topology.api.map((node) => [node.name, (node.log().match(/"incoming request"/g) ?? []).length]),
        ),
      };
      counts["jobs succeeded per worker"] = cluster.jobsPerWorker();
      process.stdout.write(`\n[multi-node] counts:\n${JSON.stringify(counts, null, 2)}\n`);
      await cluster.close();
      await cluster.topology.stop();
    }
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  });

  /** Waits until the load balancer sends requests to every API node again. */
  async function allNodesBehindBalancer(): Promise<void> {
    for (const node of cluster.topology.api) if (!node.pid) await node.start();
    await eventually(
      async () => {
        const before = cluster.requestsPerNode("GET", /^\/readyz/);
        for (let probe = 0; probe < 4; probe++) await fetch(`${cluster.lb}/readyz`);
        const after = cluster.requestsPerNode("GET", /^\/readyz/);
        return Object.keys(after).every((name) => after[name]! > before[name]!);
      },
      (ready) => ready,
      { ...acrossProcesses, what: "both nodes answering through HAProxy" },
    );
  }

  it("takes a 200 MB upload whose PATCHes alternate between the nodes, and resumes it when one node is killed", async () => {
    const file = largeJpeg(200 * 1000 * 1000);
    let killed = false;
    let killing: Promise<void> | undefined;
    const done = await new Promise<{ blobKey: string; sha256: string; storyId: string }>((resolve, reject) => {
      const upload = new tus.Upload(file, {
        endpoint: `${cluster.lb}${API}/uploads`,
        headers: { authorization: `Bearer ${token}` },
        metadata: { filename: "large.jpg", libraryId: "product", title: `large ${runId}` },
        chunkSize: 8 * 1024 * 1024,
        retryDelays: [0, 1000, 2000, 3000, 5000, 8000, 13000],
        onProgress(sent, total) {
          // A little past a third: node A dies without a word (SIGKILL), its lock and request cut off.
          if (!killed && sent > total * 0.35) {
            killed = true;
            killing = a().kill();
          }
        },
        onError: reject,
        onSuccess: ({ lastResponse }) => {
          const body = JSON.parse(lastResponse.getBody()) as {
            data: { upload: { blobKey: string; sha256: string }; result: { storyId: string } };
          };
          resolve({ ...body.data.upload, storyId: body.data.result.storyId });
        },
      });
      upload.start();
    });
    await killing;
    expect(killed).toBe(true);
    const source = sha256(file);
    expect(done.sha256).toBe(source);
    expect(await cluster.objectSha256(done.blobKey)).toBe(source);
    const patches = cluster.requestsPerNode("PATCH", /\/uploads\//);
    counts["200 MB upload: PATCHes per node"] = patches;
    expect(patches["api-a"]).toBeGreaterThan(0);
    expect(patches["api-b"]).toBeGreaterThan(0);
    await allNodesBehindBalancer();
  });

  it("finishes a transcode on the other worker when its worker is killed in the middle, storing one proxy", async () => {
    const video = testVideo(path.join(scratch, "clip.mp4"), 30);
    const uploaded = await uploadWhole(cluster.lb, token, video, {
      filename: "clip.mp4",
      libraryId: "product",
      title: `clip ${runId}`,
    });
    expect(uploaded.status).toBe(201);
    const storyId = uploaded.body.data!.result.storyId;
    const job = async () =>
      (
        await cluster.query<{
          id: string;
          state: string;
          progress: number;
          lease_owner: string | null;
          attempts: number;
        }>(
          "select id, state, progress, lease_owner, attempts from jobs where story_id = $1 order by created_at desc limit 1",
          [storyId],
        )
      )[0];
    const running = await eventually(job, (row) => row?.state === "running" && row.progress >= 20, {
      ...acrossProcesses,
      what: "the proxy transcode under way",
      limitMs: 180_000,
    });
    const pid = Number(running!.lease_owner!.split(":")[1]);
    const victim = cluster.topology.workers.find((worker) => worker.pid === pid)!;
    expect(victim).toBeDefined();
    await victim.kill();
    const finished = await eventually(job, (row) => ["succeeded", "dead"].includes(row!.state), {
      ...acrossProcesses,
      what: "the job finished elsewhere",
      limitMs: 240_000,
    });
    expect(finished).toMatchObject({ state: "succeeded", attempts: 2 });
    const proxies = await cluster.query<{ n: number }>(
      "select count(*)::int as n from story_files where story_id = $1 and role = 'proxy'",
      [storyId],
    );
    expect(proxies[0]!.n).toBe(1);
    const objects = (await cluster.keys(`renditions/${storyId}/`)).filter((key) => /\/proxy\./.test(key));
    expect(objects).toHaveLength(1);
    counts["killed worker"] = {
      worker: victim.name,
      progressWhenKilled: running!.progress,
      attempts: finished!.attempts,
    };
    await victim.start();
  });

  it("signs in through node A, refreshes through B, and a sign-out on A is refused on B", async () => {
    const credentials = { username: "admin", password: cluster.topology.adminPassword };
    const tokens = await signInThrough(cluster.lb, a().url, credentials);
    const refreshed = await refreshThrough(cluster.lb, b().url, tokens.refresh_token!);
    if ("error" in refreshed) throw new Error(`refresh on B: ${refreshed.error}`);
    for (const node of [a(), b()]) {
      for (const access of [tokens.access_token, refreshed.access_token]) {
        expect((await call(node.url, access, "/users/login/user")).status, node.name).toBe(200);
      }
    }
    expect((await call(a().url, refreshed.access_token, "/auth/logout", { method: "POST" })).status).toBe(200);
    // B drops its cached sign-in when A's notification arrives (PostgreSQL NOTIFY: milliseconds, not at once).
    const afterLogout = await eventually(
      () => call(b().url, refreshed.access_token, "/users/login/user"),
      (response) => response.status === 401,
      { ...acrossProcesses, what: "B refuses the signed-out token", limitMs: 30_000 },
    );
    expect(afterLogout).toMatchObject({ status: 401, body: { error: "token_revoked" } });
    expect(await refreshThrough(cluster.lb, b().url, refreshed.refresh_token!)).toEqual({ error: "invalid_grant" });

    // A personal API token revoked on A is refused on B as well.
    const created = await call<{ token: { id: string }; secret: string }>(a().url, token, "/api-tokens", {
      method: "POST",
      body: { name: "revoked across nodes" },
    });
    expect(created.status).toBe(200);
    expect((await call(b().url, created.body.data.secret, "/users/login/user")).status).toBe(200);
    const revoked = await call(a().url, token, `/api-tokens/${created.body.data.token.id}`, { method: "DELETE" });
    expect(revoked.status).toBe(200);
    const afterRevoke = await eventually(
      () => call(b().url, created.body.data.secret, "/users/login/user"),
      (response) => response.status === 401,
      { ...acrossProcesses, what: "B refuses the revoked API token", limitMs: 30_000 },
    );
    expect(afterRevoke.status).toBe(401);
    counts["sign-in across nodes"] = "signed in on A, refreshed on B, signed out on A → refused on B";
  });

  let shared: { libraryId: string; storyId: string; mediaPath: string } | undefined;

  it("streams from node B a signed media URL made on node A", async () => {
    const [photo] = photos(1);
    const uploaded = await uploadWhole(a().url, token, photo!, { filename: "signed.jpg", libraryId: "product" });
    expect(uploaded.status).toBe(201);
    const { libraryId, storyId } = uploaded.body.data!.result;
    const signed = await call<{ url: string }>(a().url, token, `/stories/${libraryId}/${storyId}/media-url`);
    expect(signed.status).toBe(200);
    const whole = await fetch(`${b().url}${signed.body.data.url}`);
    expect(whole.status).toBe(200);
    expect(sha256(new Uint8Array(await whole.arrayBuffer()))).toBe(sha256(photo!));
    const range = await fetch(`${b().url}${signed.body.data.url}`, { headers: { range: "bytes=0-99" } });
    expect(range.status).toBe(206);
    expect((await range.arrayBuffer()).byteLength).toBe(100);
    shared = { libraryId, storyId, mediaPath: signed.body.data.url };
  });

  it("opens on node B a share link made on node A, unlocked on B and read on A; revoked on A, B refuses it", async () => {
    expect(shared, "the signed media URL case ran first").toBeDefined();
    const { libraryId, storyId } = shared!;
    const [photo] = photos(1);
    const created = await call<{ id: string; token: string }>(a().url, token, "/shares", {
      method: "POST",
      // The visitor gets a copy of the original with the story's metadata written in (docs/media.md, "Metadata on
      // the way out"), made once by whichever node is asked first and kept in the shared store for the other.
      body: {
        target: { kind: "story", libraryId, storyId },
        password: "across nodes",
        downloadPolicy: "original",
        keepLocation: true,
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    /** The visitor: no user token, the share's token (and, once unlocked, its session) in headers. */
    const visit = async (base: string, route: string, session?: string, body?: unknown) => {
      const response = await fetch(`${base}${API}${route}`, {
        method: body === undefined ? "GET" : "POST",
        headers: {
          "x-share-token": created.body.data.token,
          ...(session ? { "x-share-session": session } : {}),
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : {} };
    };

    const locked = await visit(b().url, "/shared");
    expect(locked.status, JSON.stringify(locked.body)).toBe(200);
    expect(locked.body.data.locked).toBe(true);
    const unlocked = await visit(b().url, "/shared/unlock", undefined, { password: "across nodes" });
    expect(unlocked.status, JSON.stringify(unlocked.body)).toBe(200);
    const session: string = unlocked.body.data.session;
    const opened = await visit(a().url, "/shared", session);
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    expect(opened.body.data.locked).toBe(false);
    const downloadUrl: string = opened.body.data.stories[0].downloadUrl;
    // The original as it leaves, the same bytes whichever node serves the link; the stored one unchanged.
    const hashes: string[] = [];
    for (const node of [b(), a()]) {
      const original = await fetch(`${node.url}${downloadUrl}`);
      expect(original.status, node.name).toBe(200);
      hashes.push(sha256(new Uint8Array(await original.arrayBuffer())));
    }
    expect(hashes[1]).toBe(hashes[0]);
    expect(hashes[0]).not.toBe(sha256(photo!));
    const stored = await fetch(`${b().url}${shared!.mediaPath}`);
    expect(sha256(new Uint8Array(await stored.arrayBuffer()))).toBe(sha256(photo!));

    const revoked = await call(a().url, token, `/shares/${created.body.data.id}`, { method: "DELETE" });
    expect(revoked.status, JSON.stringify(revoked.body)).toBe(200);
    expect((await visit(b().url, "/shared", session)).status).toBe(410);
    expect((await fetch(`${b().url}${downloadUrl}`)).status).toBe(410);
    counts["share link across nodes"] = "made on A, unlocked on B, read on A and B; revoked on A → 410 on B";
  });

  it("makes 20 uploads and commits spread over both nodes searchable on both, running no job twice", async () => {
    const before = cluster.requestsPerNode("POST", /\/uploads$/);
    const stories: { storyId: string; word: string }[] = [];
    for (const [index, photo] of photos(20).entries()) {
      const word = `multinode${runId}n${index}`;
      const uploaded = await uploadWhole(cluster.lb, token, photo, {
        filename: `photo-${index}.jpg`,
        libraryId: "product",
        title: `${word} desk photo`,
      });
      expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
      stories.push({ storyId: uploaded.body.data!.result.storyId, word });
    }
    for (const half of [stories.slice(0, 10), stories.slice(10)]) {
      const committed = await call(cluster.lb, token, "/workflow-story-create/photo/commit", {
        method: "POST",
        body: { libraryId: "product", storyIds: half.map((story) => story.storyId) },
      });
      expect(committed.status, JSON.stringify(committed.body)).toBe(200);
    }
    const ids = stories.map((story) => story.storyId);
    const jobs = await eventually(
      () =>
        cluster.query<{ story_id: string; state: string; attempts: number }>(
          "select story_id, state, attempts from jobs where story_id = any($1)",
          [ids],
        ),
      (rows) => new Set(rows.map((row) => row.story_id)).size === 20 && rows.every((row) => row.state === "succeeded"),
      { ...acrossProcesses, what: "every story's jobs done" },
    );
    // No job ran twice: one attempt each (a second would mean a claim was taken from a live worker).
    expect(jobs.filter((row) => row.attempts !== 1)).toEqual([]);
    for (const node of [a(), b()]) {
      for (const story of stories) {
        const found = await call<{ content: { id: string }[] }>(node.url, token, `/stories?fulltext=${story.word}`);
        expect(
          found.body.data.content.map((item) => item.id),
          `${story.word} on ${node.name}`,
        ).toContain(story.storyId);
      }
    }
    const after = cluster.requestsPerNode("POST", /\/uploads$/);
    const uploadsPerNode = Object.fromEntries(Object.keys(after).map((name) => [name, after[name]! - before[name]!]));
    expect(Object.values(uploadsPerNode).every((count) => count > 0)).toBe(true);
    counts["20 uploads: per node"] = uploadsPerNode;
    counts["20 uploads: jobs"] = { jobs: jobs.length, runTwice: 0, searchesOnEachNode: stories.length };
  });

  it("answers 503 while RGW is stopped and recovers by itself when it returns; jobs retry", async () => {
    expect(shared).toBeDefined();
    counts["RGW outage"] = await rgwOutage(cluster, token, shared!, Number(process.env.DAMS_SCALE_OUT_OUTAGE_S ?? 30));
  });

  it("keeps every process working through a PostgreSQL restart", async () => {
    counts["PostgreSQL restart"] = await postgresRestart(cluster, token);
  });

  it("leaves nothing in the bucket's upload area", async () => {
    expect(await cluster.keys("uploads/")).toEqual([]);
  });
});
