import { type ChildProcess, spawn } from "node:child_process";
import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { bareUpload, inParallel, sender, startBarePeer } from "./bare-peer.js";

/**
 * The upload page's batch, end to end: the built server (`dams serve` from
 * server/dist, SQLite and local blobs on a fresh data dir, its own job
 * workers) takes 300 camera JPEGs through tus, 4 at a time, as the upload page
 * sends them (a POST, then a PATCH with the file), then one commit with the
 * batch's metadata; the run waits until every story is processed (done or
 * failed) and found by a full-text search on the batch's keyword. The peer,
 * in the same run: the same bytes PUT to a bare node:http server that hashes
 * and fsyncs them (bench/ingest-bare-server.ts), 4 at a time.
 *
 * The corpus has fewer JPEGs than 300, so they are cycled; each copy gets a
 * JPEG comment segment (FF FE) with its number after the SOI marker, so no two
 * files are the same bytes (the pixels are: the perceptual hash still calls
 * copies near-duplicates, which the upload only reports).
 *
 *   npm run build -w server && npm run bench:upload-batch -w bench
 *   BENCH_FILES=50 npm run bench:upload-batch -w bench
 */
const fileCount = Number(process.env.BENCH_FILES ?? 300);
const concurrency = 4;
const root = path.resolve(import.meta.dirname, "..");
const corpus = path.resolve(root, "../shared/corpus");
const work = fs.mkdtempSync(path.join(os.tmpdir(), "dams-bench-upload-batch-"));
const cli = path.join(root, "server/dist/cli.js");
const damsPort = 18_720;
const barePort = 18_721;
const damsBase = `http://127.0.0.1:${damsPort}`;
const bareBase = `http://127.0.0.1:${barePort}`;
const password = "bench-password-1";
const env = {
  ...process.env,
  PORT: String(damsPort),
  HOST: "127.0.0.1",
  DAMS_DATA_DIR: path.join(work, "dams"),
  DAMS_WEB_DIR: path.join(work, "no-web"),
  DAMS_LOG_LEVEL: "warn",
  DAMS_ADMIN_PASSWORD: password,
};

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

function run(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], { cwd: root, env, stdio: ["ignore", "pipe", "inherit"] });
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

async function waitFor(check: () => Promise<boolean>, what: string, limitMs: number): Promise<void> {
  const until = Date.now() + limitMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > until) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
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

const metadataHeader = (values: Record<string, string>) =>
  Object.entries(values)
    .map(([key, value]) => `${key} ${Buffer.from(value).toString("base64")}`)
    .join(",");

/** As the upload page's tus client: POST (Upload-Metadata), then one PATCH with the whole file. */
async function tusUpload(token: string, file: Buffer, name: string): Promise<string> {
  const auth = { authorization: `Bearer ${token}`, "tus-resumable": "1.0.0" };
  const created = await send(`${damsBase}/dams/api/v1/uploads`, "POST", {
    ...auth,
    "upload-length": String(file.length),
    "upload-metadata": metadataHeader({ filename: name, name, filetype: "image/jpeg", libraryId: "product" }),
  });
  if (created.status !== 201) throw new Error(`POST ${created.status}: ${created.body}`);
  const patched = await send(
    new URL(created.headers.location!, damsBase).toString(),
    "PATCH",
    { ...auth, "upload-offset": "0", "content-type": "application/offset+octet-stream" },
    file,
  );
  if (patched.status !== 200 && patched.status !== 204) throw new Error(`PATCH ${patched.status}: ${patched.body}`);
  const result = (JSON.parse(patched.body) as { data: { upload: { sha256: string }; result: { storyId: string } } })
    .data;
  if (result.upload.sha256 !== createHash("sha256").update(file).digest("hex")) throw new Error("hash mismatch");
  return result.result.storyId;
}

const seconds = (started: number) => (performance.now() - started) / 1000;

async function main(): Promise<void> {
  if (!fs.existsSync(cli)) throw new Error("server/dist is missing: npm run build -w server first");
  const sources = corpusJpegs();
  if (sources.length === 0) throw new Error(`no JPEGs under ${corpus}`);
  const batch = `benchbatch${randomUUID().slice(0, 8)}`;
  const files = Array.from({ length: fileCount }, (_, index) => {
    const source = sources[index % sources.length]!;
    return {
      name: `${String(index).padStart(3, "0")}-${source.name}`,
      bytes: withComment(source.bytes, `${batch} copy ${index}`),
    };
  });
  const bytes = files.reduce((sum, file) => sum + file.bytes.length, 0);

  await run(["user", "create", "bench", "--password", password, "--admin"]);
  const token = (await run(["token", "create", "bench", "--name", "upload-batch bench"])).trim();
  const dams = startChild([cli, "serve"], env);
  let bare: ChildProcess | undefined;
  try {
    bare = await startBarePeer(barePort, path.join(work, "bare"));
    await waitFor(
      async () => (await send(`${damsBase}/dams/api/v1/uploads`, "OPTIONS", {})).status < 500,
      "dams",
      60_000,
    );

    let started = performance.now();
    await inParallel(files, concurrency, async (file) => {
      const sha256 = await bareUpload(send, bareBase, file.bytes, file.name);
      if (sha256 !== createHash("sha256").update(file.bytes).digest("hex")) throw new Error("hash mismatch");
    });
    const bareSeconds = seconds(started);

    const storyIds: string[] = new Array(files.length);
    const totalStarted = performance.now();
    await inParallel(files, concurrency, async (file, index) => {
      storyIds[index] = await tusUpload(token, file.bytes, file.name);
    });
    const uploadSeconds = seconds(totalStarted);

    started = performance.now();
    await api(token, "POST", "/workflow-story-create/photo/commit", {
      libraryId: "product",
      storyIds,
      metadata: {
        keywords: [batch],
        tags: ["bench"],
        source: "bench",
        properties: { storyLevel: "normal", location: "loopback" },
      },
    });
    const commitSeconds = seconds(started);
    const want = new Set(storyIds);
    let settled = { done: 0, failed: 0 };
    await waitFor(
      async () => {
        const page = await api<{ totalElements: number; content: { id: string; processingState: string }[] }>(
          token,
          "GET",
          `/stories?fulltext=${batch}&size=${fileCount + 10}&facets=false`,
        );
        const mine = page.content.filter((story) => want.has(story.id));
        settled = {
          done: mine.filter((story) => story.processingState === "done").length,
          failed: mine.filter((story) => story.processingState === "failed").length,
        };
        return mine.length === fileCount && settled.done + settled.failed === fileCount;
      },
      "processing",
      30 * 60_000,
    );
    const processingSeconds = seconds(started);
    const totalSeconds = seconds(totalStarted);
    const mib = bytes / 2 ** 20;
    process.stdout.write(
      [
        "",
        `upload batch: ${fileCount} JPEGs (${sources.length} corpus files cycled), ${bytes} bytes (${mib.toFixed(1)} MiB), ${concurrency} uploads at a time, ${os.cpus().length} CPU(s)`,
        `  bare node:http PUT:     ${bareSeconds.toFixed(2)} s, ${(mib / bareSeconds).toFixed(1)} MiB/s, ${(fileCount / bareSeconds).toFixed(0)} files/s`,
        `  dams tus (POST+PATCH):  ${uploadSeconds.toFixed(2)} s, ${(mib / uploadSeconds).toFixed(1)} MiB/s, ${(fileCount / uploadSeconds).toFixed(0)} files/s (ratio to bare ${(bareSeconds / uploadSeconds).toFixed(2)})`,
        `  commit (one call):      ${commitSeconds.toFixed(2)} s`,
        `  processing until all settled and searchable: ${processingSeconds.toFixed(2)} s (from the commit; ${settled.done} done, ${settled.failed} failed), ${(fileCount / processingSeconds).toFixed(1)} files/s`,
        `  total (first byte to all searchable): ${totalSeconds.toFixed(2)} s, ${(mib / totalSeconds).toFixed(2)} MiB/s`,
        "",
      ].join("\n"),
    );
  } finally {
    dams.kill("SIGTERM");
    bare?.kill("SIGTERM");
    agent.destroy();
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

main()
  .catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  })
  .finally(() => fs.rmSync(work, { recursive: true, force: true }));
