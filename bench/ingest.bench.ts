import { type ChildProcess, spawn } from "node:child_process";
import { createHash, randomFillSync } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { bareUpload, inParallel, sender, startBarePeer } from "./bare-peer.js";
import { LoadSampler, median, processCpuSeconds } from "./machine.js";

/**
 * Ingest: a tus upload through the whole dams stack (auth, tus, running
 * SHA-256, content sniffing, fsync + move into the blob store, the blobs row)
 * against a bare node:http PUT handler that pipes to SHA-256 and a file
 * (fsynced and renamed, no directory fsync), on loopback, in the same run.
 * Two loads: one 1 GiB file (tus: POST, then one PATCH with the whole body),
 * and 500 small photos (corpus JPEGs, 4 at a time, tus creation-with-upload:
 * one request each, like the PUT). Both servers get the same client code
 * (node:http, the body written at once), so the ratio compares the servers;
 * tus-js-client itself writes 16 KiB at a time and is slower on loopback.
 * Prints the ratios of throughput (the target for the large file is >= 0.8,
 * for the photos >= 0.7) and, steadier on a shared machine, each server's CPU
 * time per photo (its process's, from /proc), with the load they ran at.
 *
 *   npm run bench:ingest -w bench
 *   BENCH_LARGE_MIB=256 BENCH_ROUNDS=1 npm run bench:ingest -w bench
 *   BENCH_LARGE_MIB=0: the photos only.
 *   BENCH_BASE_ROOT=<another checkout>: its dams too (the build before a change), alternated in each round.
 *   BENCH_DAMS_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/p": node options for the dams servers (profiles).
 */
const largeBytes = Number(process.env.BENCH_LARGE_MIB ?? 1024) * 1024 * 1024;
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const smallCount = Number(process.env.BENCH_SMALL_COUNT ?? 500);
const concurrency = 4;
const baseRoot = process.env.BENCH_BASE_ROOT;
const damsNodeArgs = process.env.BENCH_DAMS_NODE_ARGS?.split(" ").filter(Boolean) ?? [];
const root = path.resolve(import.meta.dirname, "..");
const corpus = path.resolve(root, "../shared/corpus/exif-samples/jpg");
const work = fs.mkdtempSync(path.join(os.tmpdir(), "dams-bench-ingest-"));

/** Starts a server in a child process; resolves with the first stdout line that `ready` accepts (logs may come first). */
function start(
  args: string[],
  ready: (line: string) => boolean,
  cwd = root,
): Promise<{ child: ChildProcess; line: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...damsNodeArgs, "--import", "tsx", ...args], {
      cwd,
      stdio: ["ignore", "pipe", "inherit"],
    });
    let output = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split("\n").find(ready);
      if (line !== undefined) resolve({ child, line });
    });
    child.on("exit", (code) => reject(new Error(`${args[0]} exited with ${code}`)));
  });
}

function sha256(bytes: Buffer): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** A real JPEG head (content sniffing must accept it), then random bytes up to `size`. */
function largeFile(size: number): Buffer {
  const head = fs.readFileSync(path.join(corpus, "Canon_40D.jpg"));
  const file = Buffer.allocUnsafe(size);
  head.copy(file);
  for (let offset = head.length; offset < size; offset += 16 * 1024 * 1024)
    randomFillSync(file, offset, Math.min(16 * 1024 * 1024, size - offset));
  return file;
}

function corpusPhotos(count: number): Buffer[] {
  const files: string[] = [];
  const walk = (directory: string) => {
    for (const entry of fs.readdirSync(directory, { withFileTypes: true })) {
      const full = path.join(directory, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.jpe?g$/i.test(entry.name)) files.push(full);
    }
  };
  walk(corpus);
  const photos = files
    .sort()
    .map((file) => fs.readFileSync(file))
    .filter((bytes) => bytes[0] === 0xff && bytes[1] === 0xd8);
  return Array.from({ length: count }, (_, index) => photos[index % photos.length]!);
}

const agent = new http.Agent({ keepAlive: true });

/** The same client code for both servers. */
const send = sender(agent);

function storedSha(response: { status: number; body: string }, expected: number): string {
  if (response.status !== expected) throw new Error(`${response.status}: ${response.body}`);
  return (JSON.parse(response.body) as { data: { upload: { sha256: string } } }).data.upload.sha256;
}

/**
 * The tus protocol as a client speaks it: creation-with-upload (one request)
 * for small files; for a large one, POST then one PATCH with the whole body.
 */
async function tusUpload(base: string, token: string, file: Buffer, name: string, inOneRequest: boolean) {
  const headers = {
    authorization: `Bearer ${token}`,
    "tus-resumable": "1.0.0",
    "upload-length": String(file.length),
    "upload-metadata": `filename ${Buffer.from(name).toString("base64")}`,
  };
  const octets = { "content-type": "application/offset+octet-stream" };
  if (inOneRequest)
    return storedSha(await send(`${base}/dams/api/v1/uploads`, "POST", { ...headers, ...octets }, file), 201);
  const created = await send(`${base}/dams/api/v1/uploads`, "POST", headers);
  if (created.status !== 201) throw new Error(`${created.status}: ${created.body}`);
  const location = new URL(created.headers.location!, base).toString();
  const patched = await send(
    location,
    "PATCH",
    { authorization: headers.authorization, "tus-resumable": "1.0.0", "upload-offset": "0", ...octets },
    file,
  );
  return storedSha(patched, 200);
}

/** Wall seconds and the server process's CPU seconds of one phase. */
interface Phase {
  seconds: number;
  cpuSeconds: number;
}

async function timed(label: string, pid: number, run: () => Promise<void>): Promise<Phase> {
  const cpu = processCpuSeconds(pid);
  const started = performance.now();
  await run();
  const seconds = (performance.now() - started) / 1000;
  const cpuSeconds = processCpuSeconds(pid) - cpu;
  process.stdout.write(`  ${label}: ${seconds.toFixed(2)} s, server CPU ${cpuSeconds.toFixed(2)} s\n`);
  return { seconds, cpuSeconds };
}

/** A server under test: how to upload to it, and its phases' figures. */
interface Contender {
  name: string;
  pid: number;
  upload(file: Buffer, name: string, inOneRequest: boolean): Promise<string>;
  large: Phase[];
  small: Phase[];
}

async function startDams(name: string, port: number, checkout: string): Promise<Contender & { child: ChildProcess }> {
  const { child, line } = await start(
    ["server/src/scripts/ingest-bench-server.ts", String(port), path.join(work, name)],
    (output) => output.startsWith('{"token"'),
    checkout,
  );
  const { token } = JSON.parse(line) as { token: string };
  const base = `http://127.0.0.1:${port}`;
  return {
    name,
    child,
    pid: child.pid!,
    upload: (file, fileName, inOneRequest) => tusUpload(base, token, file, fileName, inOneRequest),
    large: [],
    small: [],
  };
}

async function main(): Promise<void> {
  const bareChild = await startBarePeer(18_711, path.join(work, "bare"));
  const bareBase = "http://127.0.0.1:18711";
  const bare: Contender = {
    name: "bare PUT",
    pid: bareChild.pid!,
    upload: (file, name) => bareUpload(send, bareBase, file, name),
    large: [],
    small: [],
  };
  const damsServers = [await startDams("dams", 18_710, root)];
  if (baseRoot) damsServers.push(await startDams("dams@base", 18_712, path.resolve(baseRoot)));
  const contenders = [bare, ...damsServers];

  const large = largeBytes > 0 ? largeFile(largeBytes) : undefined;
  const largeSha = large && sha256(large);
  const photos = corpusPhotos(smallCount);
  const photoBytes = photos.reduce((sum, photo) => sum + photo.length, 0);
  const check = (got: string, want: string) => {
    if (got !== want) throw new Error(`hash mismatch: ${got} != ${want}`);
  };

  const sampler = new LoadSampler();
  try {
    // Warm each up (JIT, first database writes), then alternate so drift in the machine's load hits all alike.
    for (const contender of contenders)
      await inParallel(photos.slice(0, 20), concurrency, async (photo, i) => {
        await contender.upload(photo, `w${i}.jpg`, true);
      });
    for (let round = 1; round <= rounds; round++) {
      process.stdout.write(`round ${round} (load ${os.loadavg()[0]!.toFixed(1)})\n`);
      for (const contender of large ? contenders : [])
        contender.large.push(
          await timed(`${contender.name.padEnd(10)} ${largeBytes / 2 ** 20} MiB`, contender.pid, async () =>
            check(await contender.upload(large!, "large.jpg", false), largeSha!),
          ),
        );
      for (const contender of contenders)
        contender.small.push(
          await timed(`${contender.name.padEnd(10)} ${smallCount} photos`, contender.pid, () =>
            inParallel(photos, concurrency, async (photo, i) =>
              check(await contender.upload(photo, `p${i}.jpg`, true), sha256(photo)),
            ),
          ),
        );
    }
  } finally {
    for (const server of damsServers) server.child.kill("SIGTERM");
    bareChild.kill("SIGTERM");
    agent.destroy();
  }

  const load = sampler.stop();
  // The median: one round disturbed by another process on a shared machine does not move it.
  const wall = (phases: Phase[]) => median(phases.map((phase) => phase.seconds));
  const cpuMsPer = (phases: Phase[], count: number) =>
    ((median(phases.map((phase) => phase.cpuSeconds)) * 1000) / count).toFixed(2);
  const mibps = (bytes: number, seconds: number) => (bytes / 2 ** 20 / seconds).toFixed(0);
  const lines = ["", `ingest on loopback, ${rounds} round(s), median of each; ${load}`];
  for (const dams of damsServers) {
    if (large) {
      const ratio = wall(bare.large) / wall(dams.large);
      lines.push(
        `  ${dams.name}, 1 file of ${largeBytes / 2 ** 20} MiB: bare ${mibps(largeBytes, wall(bare.large))} MiB/s, dams ${mibps(largeBytes, wall(dams.large))} MiB/s`,
        `    ratio dams / node:http = ${ratio.toFixed(3)} (target >= 0.8: ${ratio >= 0.8 ? "met" : "NOT met"})`,
      );
    }
    const ratio = wall(bare.small) / wall(dams.small);
    lines.push(
      `  ${dams.name}, ${smallCount} photos (${(photoBytes / 2 ** 20).toFixed(0)} MiB, ${concurrency} at a time): bare ${(smallCount / wall(bare.small)).toFixed(0)} files/s, dams ${(smallCount / wall(dams.small)).toFixed(0)} files/s`,
      `    ratio dams / node:http = ${ratio.toFixed(3)} (target >= 0.7: ${ratio >= 0.7 ? "met" : "NOT met"})`,
      `    server CPU per photo: bare ${cpuMsPer(bare.small, smallCount)} ms, dams ${cpuMsPer(dams.small, smallCount)} ms (CPU ratio ${(median(bare.small.map((phase) => phase.cpuSeconds)) / median(dams.small.map((phase) => phase.cpuSeconds))).toFixed(3)}); ${load}`,
    );
  }
  process.stdout.write(`${lines.join("\n")}\n\n`);
}

main()
  .catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  })
  .finally(() => fs.rmSync(work, { recursive: true, force: true }));
