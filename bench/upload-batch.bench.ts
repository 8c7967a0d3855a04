import { type ChildProcess, spawn } from "node:child_process";
import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import Sqlite from "better-sqlite3";
import { SERVER_NODE_FLAGS } from "../scripts/node-flags.mjs";
import { bareUpload, inParallel, sender, startBarePeer, tusPostPatch } from "./bare-peer.js";
import { LoadSampler } from "./machine.js";
import { ensureDebianPackages, stage, vipsRenditions } from "./media-tools.js";
import { loadSqlite } from "./search-data.js";

/**
 * The upload page's batch, end to end, on the built server (`dams` from
 * server/dist, SQLite and local blobs on a fresh data dir): 300 camera JPEGs
 * through tus, 4 at a time, as the upload page sends them (a POST, then a
 * PATCH with the file), one commit with the batch's metadata, then until
 * every story is processed (done or failed) and found by a full-text search
 * on the batch's keyword. Two configurations, each on its own data dir
 * (BENCH_MODES, default both):
 *   phases    `dams serve` without workers takes the uploads and the commit;
 *             then a `dams worker` process does the processing. Each phase
 *             against its own peer, measured just before it: the upload
 *             against the same bytes PUT to a bare node:http server that
 *             hashes and fsyncs them (bench/ingest-bare-server.ts), the
 *             processing against vipsthumbnail making the same renditions
 *             (one decode per photo, bench/media-tools.ts) with as many
 *             lanes as the worker has.
 *   upload    as phases, without the processing (how the upload alone grows
 *             with BENCH_EXISTING).
 *   together  `dams serve` with its own workers (the embedded default), which
 *             process the first uploads while the rest arrive: the total
 *             against the sum of both peers (target ≤ 2×), and the API's
 *             event-loop delay during the batch (p99 and max, from /metrics).
 * Progress is watched lightly: two one-row job counts a second, and one
 * search when they reach zero.
 *
 * The corpus has fewer JPEGs than 300, so they are cycled; each copy gets a
 * JPEG comment segment (FF FE) with its number after the SOI marker, so no two
 * files are the same bytes (the pixels are: the perceptual hash still calls
 * copies near-duplicates, which the upload only reports). BENCH_EXISTING
 * stories (bench/search-data.ts) are in the library before the batch, to see
 * how the batch's cost grows with the library's size.
 *
 *   npm run build -w server && npm run bench:upload-batch -w bench
 *   BENCH_FILES=50 BENCH_MODES=phases BENCH_EXISTING=100000 npm run bench:upload-batch -w bench
 */
const fileCount = Number(process.env.BENCH_FILES ?? 300);
const modes = (process.env.BENCH_MODES ?? "phases,together").split(",");
const existing = Number(process.env.BENCH_EXISTING ?? 0);
const concurrency = 4;
/** Job workers of `dams serve` and `dams worker` (the default), and the vips peer's lanes. */
const workers = Number(process.env.DAMS_WORKERS ?? 2);
const root = path.resolve(import.meta.dirname, "..");
const corpus = path.resolve(root, "../shared/corpus");
const work = fs.mkdtempSync(path.join(os.tmpdir(), "dams-bench-upload-batch-"));
const cli = path.join(root, "server/dist/cli.js");
const damsPort = 18_720;
const barePort = 18_721;
const damsBase = `http://127.0.0.1:${damsPort}`;
const bareBase = `http://127.0.0.1:${barePort}`;
const password = "bench-password-1";
/** The scraper's token: /metrics answers nothing else without a user's access token. */
const metricsToken = "bench-metrics-token-0123456789";

function envOf(dataDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PORT: String(damsPort),
    HOST: "127.0.0.1",
    DAMS_DATA_DIR: dataDir,
    DAMS_WEB_DIR: path.join(work, "no-web"),
    DAMS_LOG_LEVEL: "warn",
    DAMS_ADMIN_PASSWORD: password,
    DAMS_WORKERS: String(workers),
    DAMS_METRICS_TOKEN: metricsToken,
    ...extra,
  };
}

/** The corpus's camera JPEGs (starting with SOI; not the deliberately broken ones of invalid/, tests/, corrupted.jpg), in name order. */
function corpusJpegs(): { name: string; bytes: Buffer }[] {
  const files: string[] = [];
  const walk = (directory: string) => {
    for (const entry of fs.readdirSync(directory, { withFileTypes: true })) {
      const full = path.join(directory, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.jpe?g$/i.test(entry.name) && !/\/(invalid|tests)\/|corrupted/.test(full)) files.push(full);
    }
  };
  walk(corpus);
  return files
    .sort()
    .map((file) => ({ name: path.basename(file), bytes: fs.readFileSync(file) }))
    .filter(({ bytes }) => bytes[0] === 0xff && bytes[1] === 0xd8);
}

/** The JPEG with a comment segment right after SOI: other bytes, same picture. */
function withComment(jpeg: Buffer, text: string): Buffer {
  const comment = Buffer.from(text, "utf8");
  const header = Buffer.from([0xff, 0xfe, 0, 0]);
  header.writeUInt16BE(comment.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), header, comment, jpeg.subarray(2)]);
}

function run(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, cli, ...args], {
      cwd: root,
      env,
      stdio: ["ignore", "pipe", "inherit"],
    });
    let output = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on("exit", (code) =>
      code === 0 ? resolve(output) : reject(new Error(`dams ${args[0]} exited with ${code}`)),
    );
  });
}

function startChild(command: string[], childEnv: NodeJS.ProcessEnv): ChildProcess {
  return spawn(process.execPath, command, { cwd: root, env: childEnv, stdio: ["ignore", "inherit", "inherit"] });
}

const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency * 2 });

const send = sender(agent);

async function waitFor(check: () => Promise<boolean>, what: string, limitMs: number, everyMs = 1000): Promise<void> {
  const until = Date.now() + limitMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > until) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

async function api<T>(token: string, method: string, pathAndQuery: string, body?: unknown): Promise<T> {
  const response = await send(
    `${damsBase}/dams/api/v1${pathAndQuery}`,
    method,
    { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body === undefined ? undefined : Buffer.from(JSON.stringify(body)),
  );
  const parsed = JSON.parse(response.body) as { code: number; data: T; msg?: string };
  if (response.status !== 200 || parsed.code !== 0) throw new Error(`${method} ${pathAndQuery}: ${response.body}`);
  return parsed.data;
}

/** As the upload page's tus client: POST (Upload-Metadata), then one PATCH with the whole file. */
async function tusUpload(token: string, file: Buffer, name: string): Promise<string> {
  const metadata = { filename: name, name, filetype: "image/jpeg", libraryId: "product" };
  return (await tusPostPatch(send, damsBase, token, file, metadata)).storyId;
}

const seconds = (started: number) => (performance.now() - started) / 1000;

interface Batch {
  name: string;
  files: { name: string; bytes: Buffer }[];
  bytes: number;
  /** The files on disk, for the vips peer. */
  staged: string[];
}

/** Jobs of the media job not finished yet (queued or running; a retry waiting for its backoff is queued). */
async function pendingJobs(token: string): Promise<number> {
  let pending = 0;
  for (const state of ["queued", "running"]) {
    const page = await api<{ totalElements: number }>(token, "GET", `/jobs?name=stories.process&state=${state}&size=1`);
    pending += page.totalElements;
  }
  return pending;
}

/** Waits, lightly, until every story of the batch is processed and found by full-text search. */
async function untilSearchable(
  token: string,
  batch: Batch,
  storyIds: string[],
): Promise<{ done: number; failed: number }> {
  const want = new Set(storyIds);
  let settled = { done: 0, failed: 0 };
  await waitFor(
    async () => {
      if ((await pendingJobs(token)) > 0) return false;
      const page = await api<{ content: { id: string; processingState: string }[] }>(
        token,
        "GET",
        `/stories?fulltext=${batch.name}&size=${fileCount + 10}&facets=false`,
      );
      const mine = page.content.filter((story) => want.has(story.id));
      settled = {
        done: mine.filter((story) => story.processingState === "done").length,
        failed: mine.filter((story) => story.processingState === "failed").length,
      };
      return mine.length === fileCount && settled.done + settled.failed === fileCount;
    },
    "processing",
    60 * 60_000,
  );
  return settled;
}

/** The event loop's delay since the last scrape (prom-client resets its histogram on each). */
async function eventLoopDelay(): Promise<{ p99Ms: number; maxMs: number }> {
  const scraped = await fetch(`${damsBase}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } });
  const text = await scraped.text();
  const value = (name: string) => Number(new RegExp(`^${name} ([0-9.e+-]+)`, "m").exec(text)?.[1] ?? Number.NaN) * 1000;
  return {
    p99Ms: value("dams_nodejs_eventloop_lag_p99_seconds"),
    maxMs: value("dams_nodejs_eventloop_lag_max_seconds"),
  };
}

async function uploadAll(token: string, batch: Batch): Promise<string[]> {
  const storyIds: string[] = new Array(batch.files.length);
  await inParallel(batch.files, concurrency, async (file, index) => {
    storyIds[index] = await tusUpload(token, file.bytes, file.name);
  });
  return storyIds;
}

async function bareUploadAll(batch: Batch): Promise<number> {
  const started = performance.now();
  await inParallel(batch.files, concurrency, async (file) => {
    const sha256 = await bareUpload(send, bareBase, file.bytes, file.name);
    if (sha256 !== createHash("sha256").update(file.bytes).digest("hex")) throw new Error("hash mismatch");
  });
  return seconds(started);
}

async function commit(token: string, batch: Batch, storyIds: string[]): Promise<void> {
  await api(token, "POST", "/workflow-story-create/photo/commit", {
    libraryId: "product",
    storyIds,
    metadata: {
      keywords: [batch.name],
      tags: ["bench"],
      source: "bench",
      properties: { storyLevel: "normal", location: "loopback" },
    },
  });
}

/** A fresh data dir with the bench user (an administrator) and BENCH_EXISTING stories; returns the user's token. */
async function prepareDataDir(dataDir: string): Promise<string> {
  const env = envOf(dataDir);
  await run(["migrate"], env);
  await run(["user", "create", "bench", "--password", password, "--admin"], env);
  if (existing > 0) {
    const file = path.join(dataDir, "dams.sqlite");
    const db = new Sqlite(file, { readonly: true });
    const { id } = db.prepare("select id from users where username = 'bench'").get() as { id: string };
    db.close();
    const started = performance.now();
    loadSqlite(file, existing, id);
    console.log(`  ${existing} existing stories loaded in ${seconds(started).toFixed(1)} s`);
  }
  return (await run(["token", "create", "bench", "--name", "upload-batch bench"], env)).trim();
}

async function waitForDams(): Promise<void> {
  await waitFor(
    async () => (await send(`${damsBase}/dams/api/v1/uploads`, "OPTIONS", {})).status < 500,
    "dams",
    60_000,
    200,
  );
}

function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

const mib = (bytes: number) => bytes / 2 ** 20;

async function phases(batch: Batch, processing = true): Promise<void> {
  const dataDir = path.join(work, processing ? "phases" : "upload");
  const token = await prepareDataDir(dataDir);
  const sampler = new LoadSampler();
  const serve = startChild([cli, "serve", "--no-workers"], envOf(dataDir));
  let worker: ChildProcess | undefined;
  try {
    await waitForDams();
    const bareSeconds = await bareUploadAll(batch);
    await eventLoopDelay();
    let started = performance.now();
    const storyIds = await uploadAll(token, batch);
    const uploadSeconds = seconds(started);
    const uploadLoop = await eventLoopDelay();
    started = performance.now();
    await commit(token, batch, storyIds);
    const commitSeconds = seconds(started);
    if (!processing) {
      console.log(
        [
          "",
          `upload (serve without workers): ${fileCount} JPEGs, ${mib(batch.bytes).toFixed(1)} MiB, ${existing} stories before; ${sampler.stop()}`,
          `  bare node:http PUT ${bareSeconds.toFixed(2)} s, dams tus ${uploadSeconds.toFixed(2)} s (${(fileCount / uploadSeconds).toFixed(0)} files/s): dams / peer time = ${(uploadSeconds / bareSeconds).toFixed(2)}; commit ${commitSeconds.toFixed(2)} s`,
          `  event-loop delay of the API during the upload: p99 ${uploadLoop.p99Ms.toFixed(1)} ms, max ${uploadLoop.maxMs.toFixed(1)} ms`,
        ].join("\n"),
      );
      return;
    }

    const vips = await vipsRenditions(batch.staged, workers, path.join(work, "vips"), 1);
    started = performance.now();
    worker = startChild([cli, "worker"], envOf(dataDir));
    const settled = await untilSearchable(token, batch, storyIds);
    const processingSeconds = seconds(started);
    const load = sampler.stop();
    const vipsSeconds = vips.ms / 1000;
    const total = uploadSeconds + commitSeconds + processingSeconds;
    console.log(
      [
        "",
        `phases (serve without workers, then \`dams worker\` with ${workers}): ${fileCount} JPEGs, ${mib(batch.bytes).toFixed(1)} MiB, ${existing} stories before; ${load}`,
        `  upload: bare node:http PUT ${bareSeconds.toFixed(2)} s (${(fileCount / bareSeconds).toFixed(0)} files/s), dams tus ${uploadSeconds.toFixed(2)} s (${(fileCount / uploadSeconds).toFixed(0)} files/s): dams / peer time = ${(uploadSeconds / bareSeconds).toFixed(2)}`,
        `  event-loop delay of the API during the upload: p99 ${uploadLoop.p99Ms.toFixed(1)} ms, max ${uploadLoop.maxMs.toFixed(1)} ms`,
        `  commit (one call): ${commitSeconds.toFixed(2)} s`,
        `  processing: vipsthumbnail, the same renditions, one decode, ${workers} lanes ${vipsSeconds.toFixed(2)} s; dams worker until all searchable ${processingSeconds.toFixed(2)} s (${settled.done} done, ${settled.failed} failed, start-up included): dams / peer time = ${(processingSeconds / vipsSeconds).toFixed(2)}`,
        `  total: ${total.toFixed(2)} s against the peers' ${(bareSeconds + vipsSeconds).toFixed(2)} s = ${(total / (bareSeconds + vipsSeconds)).toFixed(2)} (target <= 2: ${total <= 2 * (bareSeconds + vipsSeconds) ? "met" : "NOT met"}); ${load}`,
      ].join("\n"),
    );
  } finally {
    await stop(worker);
    await stop(serve);
  }
}

async function together(batch: Batch): Promise<void> {
  const dataDir = path.join(work, "together");
  const token = await prepareDataDir(dataDir);
  const sampler = new LoadSampler();
  const serve = startChild([cli, "serve"], envOf(dataDir));
  try {
    await waitForDams();
    const bareSeconds = await bareUploadAll(batch);
    const vipsSeconds = (await vipsRenditions(batch.staged, workers, path.join(work, "vips"), 1)).ms / 1000;
    await eventLoopDelay();
    const totalStarted = performance.now();
    const storyIds = await uploadAll(token, batch);
    const uploadSeconds = seconds(totalStarted);
    let started = performance.now();
    await commit(token, batch, storyIds);
    const commitSeconds = seconds(started);
    started = performance.now();
    const settled = await untilSearchable(token, batch, storyIds);
    const processingSeconds = seconds(started);
    const totalSeconds = seconds(totalStarted);
    const loop = await eventLoopDelay();
    const load = sampler.stop();
    const peers = bareSeconds + vipsSeconds;
    console.log(
      [
        "",
        `together (serve with ${workers} workers in the process): ${fileCount} JPEGs, ${mib(batch.bytes).toFixed(1)} MiB, ${existing} stories before; ${load}`,
        `  upload (processing already running): ${uploadSeconds.toFixed(2)} s, ${(fileCount / uploadSeconds).toFixed(0)} files/s`,
        `  commit (one call): ${commitSeconds.toFixed(2)} s`,
        `  processing left after the commit, until all settled and searchable: ${processingSeconds.toFixed(2)} s (${settled.done} done, ${settled.failed} failed)`,
        `  event-loop delay of the API during the batch: p99 ${loop.p99Ms.toFixed(1)} ms, max ${loop.maxMs.toFixed(1)} ms`,
        `  total, first byte to all searchable: ${totalSeconds.toFixed(2)} s; peers: bare PUT ${bareSeconds.toFixed(2)} s + vipsthumbnail ${vipsSeconds.toFixed(2)} s = ${peers.toFixed(2)} s; ratio ${(totalSeconds / peers).toFixed(2)} (target <= 2: ${totalSeconds <= 2 * peers ? "met" : "NOT met"}); ${load}`,
      ].join("\n"),
    );
  } finally {
    await stop(serve);
  }
}

async function main(): Promise<void> {
  if (!fs.existsSync(cli)) throw new Error("server/dist is missing: npm run build -w server first");
  ensureDebianPackages([{ command: "vipsthumbnail", package: "libvips-tools" }]);
  const sources = corpusJpegs();
  if (sources.length === 0) throw new Error(`no JPEGs under ${corpus}`);
  const name = `benchbatch${randomUUID().slice(0, 8)}`;
  const files = Array.from({ length: fileCount }, (_, index) => {
    const source = sources[index % sources.length]!;
    return {
      name: `${String(index).padStart(3, "0")}-${source.name}`,
      bytes: withComment(source.bytes, `${name} copy ${index}`),
    };
  });
  const onDisk = path.join(work, "files");
  fs.mkdirSync(onDisk);
  const written = files.map((file) => {
    const target = path.join(onDisk, file.name);
    fs.writeFileSync(target, file.bytes);
    return target;
  });
  const batch: Batch = {
    name,
    files,
    bytes: files.reduce((sum, file) => sum + file.bytes.length, 0),
    staged: stage(written, path.join(work, "staged")),
  };
  console.log(
    `upload batch: ${fileCount} JPEGs (${sources.length} corpus files cycled), ${concurrency} uploads at a time`,
  );
  const bare = await startBarePeer(barePort, path.join(work, "bare"));
  try {
    if (modes.includes("upload")) await phases(batch, false);
    if (modes.includes("phases")) await phases(batch);
    if (modes.includes("together")) await together(batch);
  } finally {
    bare.kill("SIGTERM");
    agent.destroy();
  }
}

main()
  .catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  })
  .finally(() => fs.rmSync(work, { recursive: true, force: true }));
