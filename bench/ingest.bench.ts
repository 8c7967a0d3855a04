import { type ChildProcess, spawn } from "node:child_process";
import { createHash, randomFillSync } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { bareUpload, inParallel, sender, startBarePeer } from "./bare-peer.js";
import { LoadSampler } from "./machine.js";

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
 * Prints the ratios of throughput; the target for the large file is >= 0.8.
 *
 *   npm run bench:ingest -w bench
 *   BENCH_LARGE_MIB=256 BENCH_ROUNDS=1 npm run bench:ingest -w bench
 */
const largeBytes = Number(process.env.BENCH_LARGE_MIB ?? 1024) * 1024 * 1024;
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const smallCount = Number(process.env.BENCH_SMALL_COUNT ?? 500);
const concurrency = 4;
const root = path.resolve(import.meta.dirname, "..");
const corpus = path.resolve(root, "../shared/corpus/exif-samples/jpg");
const work = fs.mkdtempSync(path.join(os.tmpdir(), "dams-bench-ingest-"));

/** Starts a server in a child process; resolves with the first stdout line that `ready` accepts (logs may come first). */
function start(args: string[], ready: (line: string) => boolean): Promise<{ child: ChildProcess; line: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", ...args], {
      cwd: root,
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

async function timed(label: string, run: () => Promise<void>): Promise<number> {
  const started = performance.now();
  await run();
  const seconds = (performance.now() - started) / 1000;
  process.stdout.write(`  ${label}: ${seconds.toFixed(2)} s\n`);
  return seconds;
}

async function main(): Promise<void> {
  const damsPort = 18_710;
  const barePort = 18_711;
  const dams = await start(
    ["server/src/scripts/ingest-bench-server.ts", String(damsPort), path.join(work, "dams")],
    (line) => line.startsWith('{"token"'),
  );
  const { token } = JSON.parse(dams.line) as { token: string };
  const bare = await startBarePeer(barePort, path.join(work, "bare"));
  const damsBase = `http://127.0.0.1:${damsPort}`;
  const bareBase = `http://127.0.0.1:${barePort}`;

  const large = largeFile(largeBytes);
  const largeSha = sha256(large);
  const photos = corpusPhotos(smallCount);
  const photoBytes = photos.reduce((sum, photo) => sum + photo.length, 0);
  const check = (got: string, want: string) => {
    if (got !== want) throw new Error(`hash mismatch: ${got} != ${want}`);
  };

  const times = {
    bareLarge: [] as number[],
    damsLarge: [] as number[],
    bareSmall: [] as number[],
    damsSmall: [] as number[],
  };
  const sampler = new LoadSampler();
  try {
    // Warm both up (JIT, first database writes), then alternate so drift in the machine's load hits both alike.
    await inParallel(
      photos.slice(0, 20),
      concurrency,
      async (photo, i) => void (await bareUpload(send, bareBase, photo, `w${i}.jpg`)),
    );
    await inParallel(
      photos.slice(0, 20),
      concurrency,
      async (photo, i) => void (await tusUpload(damsBase, token, photo, `w${i}.jpg`, true)),
    );
    for (let round = 1; round <= rounds; round++) {
      process.stdout.write(`round ${round}\n`);
      times.bareLarge.push(
        await timed(`bare PUT   ${largeBytes / 2 ** 20} MiB`, async () =>
          check(await bareUpload(send, bareBase, large, "large.jpg"), largeSha),
        ),
      );
      times.damsLarge.push(
        await timed(`dams tus   ${largeBytes / 2 ** 20} MiB`, async () =>
          check(await tusUpload(damsBase, token, large, "large.jpg", false), largeSha),
        ),
      );
      times.bareSmall.push(
        await timed(`bare PUT   ${smallCount} photos`, () =>
          inParallel(photos, concurrency, async (photo, i) =>
            check(await bareUpload(send, bareBase, photo, `p${i}.jpg`), sha256(photo)),
          ),
        ),
      );
      times.damsSmall.push(
        await timed(`dams tus   ${smallCount} photos`, () =>
          inParallel(photos, concurrency, async (photo, i) =>
            check(await tusUpload(damsBase, token, photo, `p${i}.jpg`, true), sha256(photo)),
          ),
        ),
      );
    }
  } finally {
    dams.child.kill("SIGTERM");
    bare.kill("SIGTERM");
    agent.destroy();
  }

  const load = sampler.stop();
  // The median: one round disturbed by another process on a shared machine does not move it.
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const mibps = (bytes: number, seconds: number) => (bytes / 2 ** 20 / seconds).toFixed(0);
  const largeRatio = median(times.bareLarge) / median(times.damsLarge);
  const smallRatio = median(times.bareSmall) / median(times.damsSmall);
  process.stdout.write(
    [
      "",
      `ingest on loopback, ${rounds} round(s), median of each; ${load}`,
      `  1 file of ${largeBytes / 2 ** 20} MiB: bare ${mibps(largeBytes, median(times.bareLarge))} MiB/s, dams ${mibps(largeBytes, median(times.damsLarge))} MiB/s`,
      `    ratio dams / node:http = ${largeRatio.toFixed(3)} (target >= 0.8: ${largeRatio >= 0.8 ? "met" : "NOT met"})`,
      `  ${smallCount} photos (${(photoBytes / 2 ** 20).toFixed(0)} MiB, ${concurrency} at a time): bare ${(smallCount / median(times.bareSmall)).toFixed(0)} files/s, dams ${(smallCount / median(times.damsSmall)).toFixed(0)} files/s`,
      `    ratio dams / node:http = ${smallRatio.toFixed(3)} (target >= 0.7: ${smallRatio >= 0.7 ? "met" : "NOT met"}); ${load}`,
      "",
    ].join("\n"),
  );
}

main()
  .catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  })
  .finally(() => fs.rmSync(work, { recursive: true, force: true }));
