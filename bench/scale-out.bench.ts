import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { HeadObjectCommand, ListObjectsV2Command, PutObjectCommand } from "@aws-sdk/client-s3";
import autocannon from "autocannon";
import pg from "pg";
import * as tus from "tus-js-client";
import { startRgw, stopRgw } from "../scripts/ceph-rgw.mjs";
import { startTopology, type Topology } from "../scripts/scale-out.mjs";
import { openDatabase } from "../server/src/db/database.js";
import { benchUsers } from "./bench-data.js";
import { LoadSampler, loadNow, processCpuSeconds, spread } from "./machine.js";
import { emptyBucket, SDK_PART, SDK_QUEUE, s3Client, uploadDirect, writeLargeFile } from "./s3-direct.js";
import { loadPostgres } from "./search-data.js";

/**
 * The scale-out topology of scripts/scale-out.mjs (PostgreSQL, Ceph RGW, two
 * `dams serve --no-workers` behind HAProxy, no workers) measured in two parts
 * (`BENCH_PARTS=api,ingest`, the default), and two smaller ones for
 * docs/scale.md's arithmetic (`sizes`: PostgreSQL's bytes per story of the
 * tables that grow with the stories; `blobs`: the blob sweeper's LIST pages
 * and one-at-a-time HEADs timed on RGW):
 *
 * (a) API throughput: two API processes behind HAProxy against one of them
 *     directly, on GET one story and a search (`typhoon`, a common word),
 *     signed in with an editor's API token over generated stories
 *     (bench/search-data.ts), with autocannon in this process (the servers
 *     are processes of their own), direct and balanced alternated round by
 *     round. Prints requests/s of each, their ratio, the CPU time per request
 *     of the dams processes (and HAProxy's), the core count and the load. On
 *     a 2-core machine the two nodes, PostgreSQL, HAProxy and the client share
 *     the same two cores, so the ratio is expected near 1×: a second node adds
 *     processes, not cores. It shows what the extra hop costs, not how far
 *     more machines carry.
 * (b) Ingest of a 1 GiB file into RGW: tus-js-client through HAProxy (its
 *     PATCHes spread over both nodes, the bytes hashed on the way and staged as
 *     an S3 multipart upload, then moved to its blob key), against the same
 *     file sent straight to RGW with the AWS SDK's multipart `Upload` (the
 *     `aws s3 cp` defaults: 8 MiB parts, 10 at a time). Prints both throughputs
 *     and their ratio; target ≥ 0.7. The file is made in a temporary directory
 *     and removed; the bucket is emptied after each upload (RGW's memory store
 *     is bounded, and it is started with room for the rounds).
 *
 *   npm run build -w server && npm run bench:scale-out -w bench
 *   BENCH_PARTS=api BENCH_SECONDS=5 BENCH_ROUNDS=3 BENCH_STORIES=10000 npm run bench:scale-out -w bench
 *   BENCH_PARTS=ingest BENCH_INGEST_MIB=1024 BENCH_INGEST_ROUNDS=1 npm run bench:scale-out -w bench
 *   BENCH_PARTS=sizes,blobs BENCH_STORIES=100000 BENCH_BLOB_KEYS=3000 npm run bench:scale-out -w bench
 */
const parts = (process.env.BENCH_PARTS ?? "api,ingest").split(",");
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 20);
const storyCount = Number(process.env.BENCH_STORIES ?? 10_000);
const ingestBytes = Number(process.env.BENCH_INGEST_MIB ?? 1024) * 1024 * 1024;
const ingestRounds = Number(process.env.BENCH_INGEST_ROUNDS ?? 1);
const root = path.resolve(import.meta.dirname, "..");
const corpus = path.resolve(root, "../shared/corpus/exif-samples/jpg");
const API = "/dams/api/v1";
const MiB = 1024 * 1024;
/**
 * tus runs to try, by PATCH size: by default `whole` (the web app's: each file
 * in one request) and `50` (the web app behind a proxy whose body limit needs
 * DAMS_UPLOAD_CHUNK_MIB=50); `48` is a multiple of the server's 16 MiB S3 part;
 * `50x2` sends the bytes as 2 files of half the size at once (what the web app
 * does with a batch, and what tus's concatenation would allow for one file,
 * its final step aside).
 */
const TUS_CHUNKS = (process.env.BENCH_TUS_CHUNKS_MIB ?? "whole,50").split(",");
const chunkOf = (spec: string) => (spec.startsWith("whole") ? ingestBytes : Number(spec.split("x")[0]) * MiB);
const filesOf = (spec: string) => Number(spec.split("x")[1] ?? 1);
const tusLabel = (spec: string) =>
  `${spec.startsWith("whole") ? "each file in one PATCH, the web app's default" : `${chunkOf(spec) / MiB} MiB PATCHes`}${
    filesOf(spec) > 1 ? `, ${filesOf(spec)} files of 1/${filesOf(spec)} at once` : ""
  }`;

function say(message: string): void {
  process.stderr.write(`[bench:scale-out] ${message}\n`);
}

// ── the topology's data ───────────────────────────────────────────────────

/** An editor with a personal API token, and the generated stories, in the topology's database. */
async function seed(topology: Topology): Promise<{ token: string; storyId: string }> {
  const db = openDatabase({ kind: "postgres", url: topology.postgres.url });
  let creatorId: string;
  let token: string;
  try {
    ({ creatorId, token } = await benchUsers(db));
  } finally {
    await db.close();
  }
  if (parts.includes("api") || parts.includes("sizes"))
    await loadPostgres(topology.postgres.url, storyCount, creatorId);
  const reopened = openDatabase({ kind: "postgres", url: topology.postgres.url });
  try {
    const story = await reopened.kysely
      .selectFrom("stories")
      .select("id")
      .where("library_id", "=", "product")
      .orderBy("created_at", "desc")
      .limit(1)
      .executeTakeFirst();
    return { token, storyId: story?.id ?? "" };
  } finally {
    await reopened.close();
  }
}

// ── (a) API throughput ────────────────────────────────────────────────────

interface Measured {
  rate: number;
  cpuPerRequestMs: number;
}

/** autocannon against `base`; the CPU of `pids` (the processes that served it) per request. */
async function load(base: string, url: string, token: string, pids: number[], duration: number): Promise<Measured> {
  const cpu = () => pids.reduce((sum, pid) => sum + processCpuSeconds(pid), 0);
  const before = cpu();
  const result = await autocannon({
    url: `${base}${url}`,
    connections,
    duration,
    pipelining: 1,
    headers: { authorization: `Bearer ${token}` },
  });
  const used = cpu() - before;
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${base}${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  const requests = result["2xx"];
  return { rate: requests / result.duration, cpuPerRequestMs: (used * 1000) / requests };
}

async function benchApi(topology: Topology, token: string, storyId: string): Promise<void> {
  const sampler = new LoadSampler();
  const [nodeA, nodeB] = topology.api as [Topology["api"][number], Topology["api"][number]];
  const direct = { base: nodeA.url!, pids: [nodeA.pid!] };
  const balanced = { base: topology.url, pids: [nodeA.pid!, nodeB.pid!, topology.haproxy.pid] };
  const routes = [
    { name: "GET one story", url: `${API}/stories/product/${storyId}` },
    { name: "search typhoon", url: `${API}/stories?fulltext=typhoon&size=50` },
  ];
  const results = new Map<string, { direct: Measured[]; balanced: Measured[] }>();
  for (const route of routes) {
    // Warm both paths (JIT, statement caches, HAProxy's connections), then alternate.
    await load(direct.base, route.url, token, direct.pids, 1);
    await load(balanced.base, route.url, token, balanced.pids, 1);
    const runs = { direct: [] as Measured[], balanced: [] as Measured[] };
    for (let round = 0; round < rounds; round++) {
      runs.direct.push(await load(direct.base, route.url, token, direct.pids, seconds));
      runs.balanced.push(await load(balanced.base, route.url, token, balanced.pids, seconds));
      say(`${route.name}: round ${round + 1} of ${rounds} done (${loadNow()})`);
    }
    results.set(route.name, runs);
  }
  console.log(
    `\n(a) API throughput, PostgreSQL, ${storyCount} stories, ${connections} connections, ` +
      `${rounds} × ${seconds} s per path and route, alternated; ${os.availableParallelism()} cores; ${sampler.stop()}`,
  );
  console.log(
    "  | route | req/s 1 node direct | req/s 2 nodes behind HAProxy | ratio | CPU ms/req direct (node) | CPU ms/req balanced (nodes + HAProxy) |",
  );
  console.log("  |---|---|---|---|---|---|");
  for (const route of routes) {
    const runs = results.get(route.name)!;
    const ratios = runs.balanced.map((run, index) => run.rate / runs.direct[index]!.rate);
    console.log(
      `  | ${route.name} | ${spread(
        runs.direct.map((run) => run.rate),
        0,
      )} | ${spread(
        runs.balanced.map((run) => run.rate),
        0,
      )} | ${spread(ratios)} | ${spread(
        runs.direct.map((run) => run.cpuPerRequestMs),
        3,
      )} | ${spread(
        runs.balanced.map((run) => run.cpuPerRequestMs),
        3,
      )} |`,
    );
  }
  console.log(
    `  (median (min–max) over the rounds; ratio = balanced / direct, paired by round.` +
      ` With ${os.availableParallelism()} cores shared by both nodes, PostgreSQL, HAProxy and the client,` +
      ` expect ≈ 1×: a second process adds no cores here)`,
  );
}

// ── (b) ingest of 1 GiB ───────────────────────────────────────────────────

/**
 * tus-js-client through the load balancer; resolves with the seconds it took
 * and the seconds of its last PATCH (which also completes the upload: the
 * hash, the content check, the move to the blob key and the story), after
 * checking the stored hash.
 */
function uploadThroughBalancer(
  lb: string,
  token: string,
  file: string,
  sha256: string,
  chunkSize = chunkOf(TUS_CHUNKS[0]!),
): Promise<{ seconds: number; lastPatchSeconds: number }> {
  const started = performance.now();
  let lastChunk = started;
  return new Promise((resolve, reject) => {
    const upload = new tus.Upload(fs.createReadStream(file), {
      endpoint: `${lb}${API}/uploads`,
      headers: { authorization: `Bearer ${token}` },
      metadata: { filename: "large.jpg", libraryId: "product", title: `scale-out bench ${Date.now()}` },
      chunkSize,
      retryDelays: [0, 1000, 3000],
      onChunkComplete: (_size, accepted, total) => {
        if (accepted < total) lastChunk = performance.now();
      },
      onError: reject,
      onSuccess: ({ lastResponse }) => {
        const now = performance.now();
        const body = JSON.parse(lastResponse.getBody()) as { data: { upload: { sha256: string } } };
        if (body.data.upload.sha256 !== sha256)
          reject(new Error("the stored upload's SHA-256 differs from the file's"));
        else resolve({ seconds: (now - started) / 1000, lastPatchSeconds: (now - lastChunk) / 1000 });
      },
    });
    upload.start();
  });
}

/** CPU seconds so far of each group of processes that an ingest passes through. */
function ingestCpu(topology: Topology): Record<string, number> {
  const sum = (pids: (number | null | undefined)[]) =>
    pids.reduce<number>((total, pid) => total + (pid ? processCpuSeconds(pid) : 0), 0);
  const usage = process.cpuUsage();
  return {
    client: (usage.user + usage.system) / 1e6,
    dams: sum(topology.api.map((node) => node.pid)),
    haproxy: sum([topology.haproxy.pid]),
    ceph: sum([topology.rgw.pids.rgw, topology.rgw.pids.osd, topology.rgw.pids.mon]),
  };
}

interface IngestRun {
  seconds: number;
  /** tus only: the last PATCH, which completes the upload. */
  lastPatchSeconds?: number;
  cpu: Record<string, number>;
}

async function measured(
  topology: Topology,
  upload: () => Promise<number | { seconds: number; lastPatchSeconds: number }>,
): Promise<IngestRun> {
  const before = ingestCpu(topology);
  const result = await upload();
  const after = ingestCpu(topology);
  const cpu = Object.fromEntries(Object.keys(after).map((name) => [name, after[name]! - before[name]!]));
  return typeof result === "number" ? { seconds: result, cpu } : { ...result, cpu };
}

async function benchIngest(topology: Topology, token: string): Promise<void> {
  const sampler = new LoadSampler();
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "dams-bench-scale-out-"));
  const client = s3Client(topology.rgw);
  try {
    const file = path.join(scratch, "large.jpg");
    say(`writing ${(ingestBytes / MiB).toFixed(0)} MiB to ${file}`);
    const sha256 = await writeLargeFile(file, ingestBytes, path.join(corpus, "Canon_40D.jpg"));
    // Warm both paths (RGW's first multipart upload, the nodes' S3 clients and HAProxy) on a small file.
    const warmUp = path.join(scratch, "warm-up.jpg");
    const warmUpSha256 = await writeLargeFile(warmUp, 32 * MiB, path.join(corpus, "Canon_40D.jpg"));
    await uploadDirect(client, topology.bucket, warmUp, 32 * MiB);
    await uploadThroughBalancer(topology.url, token, warmUp, warmUpSha256);
    await emptyBucket(client, topology.bucket);
    fs.rmSync(warmUp);
    const direct: IngestRun[] = [];
    const tusRuns = new Map<string, IngestRun[]>(TUS_CHUNKS.map((spec) => [spec, []]));
    // The files of the runs that send the bytes as several (each with its own JPEG head, so each passes the content check).
    const slices = new Map<number, { file: string; sha256: string }[]>();
    for (const count of new Set(TUS_CHUNKS.map(filesOf).filter((count) => count > 1))) {
      const files = [];
      for (let index = 0; index < count; index++) {
        const slice = path.join(scratch, `slice-${count}-${index}.jpg`);
        files.push({
          file: slice,
          sha256: await writeLargeFile(slice, ingestBytes / count, path.join(corpus, "Canon_40D.jpg")),
        });
      }
      slices.set(count, files);
    }
    const sendAll = async (spec: string) => {
      const files = slices.get(filesOf(spec)) ?? [{ file, sha256 }];
      const started = performance.now();
      const runs = await Promise.all(
        files.map((one) => uploadThroughBalancer(topology.url, token, one.file, one.sha256, chunkOf(spec))),
      );
      const lastPatchSeconds = Math.max(...runs.map((run) => run.lastPatchSeconds));
      return { seconds: (performance.now() - started) / 1000, lastPatchSeconds };
    };
    for (let round = 0; round < ingestRounds; round++) {
      direct.push(await measured(topology, () => uploadDirect(client, topology.bucket, file, ingestBytes)));
      await emptyBucket(client, topology.bucket);
      for (const spec of TUS_CHUNKS) {
        const run = await measured(topology, () => sendAll(spec));
        tusRuns.get(spec)!.push(run);
        await emptyBucket(client, topology.bucket);
      }
      say(
        `ingest round ${round + 1} of ${ingestRounds}: direct ${direct.at(-1)!.seconds.toFixed(1)} s, tus ` +
          `${TUS_CHUNKS.map((spec) => `${spec} ${tusRuns.get(spec)!.at(-1)!.seconds.toFixed(1)} s`).join(", ")} (${loadNow()})`,
      );
    }
    const mibPerSecond = (run: IngestRun) => ingestBytes / MiB / run.seconds;
    const cpu = (runs: IngestRun[], name: string) =>
      spread(
        runs.map((run) => run.cpu[name]!),
        1,
      );
    const row = (name: string, runs: IngestRun[]) =>
      `  | ${name} | ${spread(
        runs.map((run) => run.seconds),
        1,
      )} | ${spread(runs.map(mibPerSecond), 1)} | ${cpu(runs, "client")} | ${cpu(runs, "dams")} | ${cpu(runs, "haproxy")} | ${cpu(runs, "ceph")} |`;
    console.log(
      `\n(b) ingest of ${(ingestBytes / MiB).toFixed(0)} MiB into Ceph RGW, ${ingestRounds} round(s), ` +
        `direct then tus; ${os.availableParallelism()} cores; ${sampler.stop()}`,
    );
    console.log(
      "  | path | seconds | MiB/s | CPU s client | CPU s dams nodes | CPU s HAProxy | CPU s Ceph (RGW, OSD, mon) |",
    );
    console.log("  |---|---|---|---|---|---|---|");
    console.log(
      row(`AWS SDK multipart Upload straight to RGW (${SDK_PART / MiB} MiB parts, ${SDK_QUEUE} at a time)`, direct),
    );
    for (const spec of TUS_CHUNKS) {
      console.log(row(`tus-js-client through HAProxy, 2 API nodes (${tusLabel(spec)})`, tusRuns.get(spec)!));
    }
    for (const spec of TUS_CHUNKS) {
      const runs = tusRuns.get(spec)!;
      console.log(
        `  tus (${tusLabel(spec)}): the last PATCH, which completes the upload, took ${spread(
          runs.map((run) => run.lastPatchSeconds!),
          1,
        )} s of ${spread(
          runs.map((run) => run.seconds),
          1,
        )} s (a node that did not see every PATCH reads the whole upload back from the bucket to hash it)`,
      );
    }
    for (const spec of TUS_CHUNKS) {
      const ratios = tusRuns.get(spec)!.map((run, index) => direct[index]!.seconds / run.seconds);
      const mean = ratios.reduce((total, value) => total + value, 0) / ratios.length;
      console.log(
        `  ratio tus (${tusLabel(spec)}) / direct: ${spread(ratios)} ` +
          `(target ≥ 0.7: ${mean >= 0.7 ? "met" : "NOT met"}; median (min–max) over the rounds, paired by round)`,
      );
    }
  } finally {
    client.destroy();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

// ── (c) bytes per story ───────────────────────────────────────────────────

/** The tables that grow with the stories, each with its indexes and TOAST. */
const STORY_TABLES = ["stories", "story_search", "story_terms"] as const;

/** The on-disk size per story of the generated data, for docs/scale.md's arithmetic. */
async function benchSizes(topology: Topology): Promise<void> {
  const client = new pg.Client({ connectionString: topology.postgres.url });
  await client.connect();
  try {
    await client.query("vacuum analyze");
    const { rows } = await client.query<{ name: string; total: string; indexes: string; rows: string }>(
      `select t.name, pg_total_relation_size(t.name::regclass) as total, pg_indexes_size(t.name::regclass) as indexes,
         (select reltuples::bigint from pg_class where oid = t.name::regclass) as rows
       from unnest($1::text[]) as t(name)`,
      [[...STORY_TABLES]],
    );
    console.log(`
(c) PostgreSQL bytes per story, ${storyCount} generated stories (bench/search-data.ts)`);
    console.log("  | table | rows per story | bytes per story (all) | of which indexes |");
    console.log("  |---|---|---|---|");
    for (const row of rows) {
      console.log(
        `  | ${row.name} | ${(Number(row.rows) / storyCount).toFixed(1)} | ${(Number(row.total) / storyCount).toFixed(0)} | ${(Number(row.indexes) / storyCount).toFixed(0)} |`,
      );
    }
  } finally {
    await client.end();
  }
}

// ── (d) the sweeper's requests on RGW ─────────────────────────────────────

/**
 * The blob sweeper (modules/blobs/blob-sweeper.ts) lists `originals/` in
 * pages of 1 000 and stats every registered key, one HEAD at a time. Timed on
 * `BENCH_BLOB_KEYS` small objects, to put a rate on its walk at 10× and 100×.
 */
async function benchBlobListing(topology: Topology): Promise<void> {
  const count = Number(process.env.BENCH_BLOB_KEYS ?? 3000);
  const client = s3Client(topology.rgw);
  try {
    const keys = Array.from({ length: count }, () => {
      const id = randomUUID();
      return `originals/${id.slice(0, 2)}/${id.slice(2, 4)}/${id}`;
    });
    for (let index = 0; index < keys.length; index += 20) {
      await Promise.all(
        keys
          .slice(index, index + 20)
          .map((Key) => client.send(new PutObjectCommand({ Bucket: topology.bucket, Key, Body: "x" }))),
      );
    }
    let started = performance.now();
    let listed = 0;
    let pages = 0;
    let token: string | undefined;
    do {
      const page = await client.send(
        new ListObjectsV2Command({ Bucket: topology.bucket, Prefix: "originals/", ContinuationToken: token }),
      );
      listed += page.KeyCount ?? 0;
      pages++;
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    const listMs = performance.now() - started;
    started = performance.now();
    for (const Key of keys) await client.send(new HeadObjectCommand({ Bucket: topology.bucket, Key }));
    const headMs = performance.now() - started;
    console.log(
      `
(d) the sweeper's requests on Ceph RGW (one OSD in memory, loopback), ${count} objects; ${loadNow()}`,
    );
    console.log(
      `  LIST: ${listed} keys in ${pages} pages, ${listMs.toFixed(0)} ms (${(listMs / pages).toFixed(1)} ms per page of 1000)`,
    );
    console.log(
      `  HEAD one at a time: ${(headMs / count).toFixed(2)} ms each (${((count / headMs) * 1000).toFixed(0)}/s)`,
    );
    await emptyBucket(client, topology.bucket);
  } finally {
    client.destroy();
  }
}

// ── the run ───────────────────────────────────────────────────────────────

async function main(): Promise<void> {
  // Room for each round's objects (tus's staged upload and blob, the SDK's object) before RGW's collector frees them.
  const uploadsPerRound = 1 + TUS_CHUNKS.length;
  const memoryMiB = parts.includes("ingest")
    ? Math.ceil((ingestBytes / MiB) * (2 * uploadsPerRound * ingestRounds + 1)) + 1024
    : 1024;
  say(`starting Ceph RGW (memory store ${memoryMiB} MiB), PostgreSQL, 2 API nodes and HAProxy (${loadNow()})`);
  const rgw = await startRgw({ memoryMiB });
  let topology: Topology | undefined;
  const stopAll = async () => {
    await topology?.stop();
    await stopRgw(rgw.dir);
  };
  const interrupted = () => void stopAll().finally(() => process.exit(130));
  process.once("SIGINT", interrupted);
  try {
    topology = await startTopology({ api: 2, workers: 0, rgw, env: { DAMS_LOG_LEVEL: "warn" } });
    const stories = parts.includes("api") || parts.includes("sizes") ? storyCount : 0;
    say(`topology up at ${topology.url}; loading ${stories} stories`);
    const { token, storyId } = await seed(topology);
    if (parts.includes("api")) await benchApi(topology, token, storyId);
    if (parts.includes("ingest")) await benchIngest(topology, token);
    if (parts.includes("sizes")) await benchSizes(topology);
    if (parts.includes("blobs")) await benchBlobListing(topology);
  } finally {
    process.removeListener("SIGINT", interrupted);
    await stopAll();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
