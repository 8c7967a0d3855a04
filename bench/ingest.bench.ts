import { type ChildProcess, spawn } from "node:child_process";
import { createHash, randomFillSync } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import * as tus from "tus-js-client";

/**
 * Ingest: a tus upload through the whole dams stack (auth, tus, running
 * SHA-256, content sniffing, fsync + move into the blob store, the blobs row)
 * against a bare node:http PUT handler that pipes to SHA-256 and a file
 * (fsynced and renamed, the same durability), on loopback, in the same run.
 * Two loads: one 1 GiB file, and 500 small photos (corpus JPEGs, 4 at a time,
 * tus creation-with-upload: one request each, like the PUT).
 * Prints the ratios of throughput; the target for the large file is >= 0.8.
 *
 *   npm run bench:ingest -w bench
 *   BENCH_LARGE_MIB=256 BENCH_ROUNDS=1 npm run bench:ingest -w bench
 */
const largeBytes = Number(process.env.BENCH_LARGE_MIB ?? 1024) * 1024 * 1024;
const rounds = Number(process.env.BENCH_ROUNDS ?? 2);
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

function tusUpload(base: string, token: string, file: Buffer, name: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const upload = new tus.Upload(file, {
      endpoint: `${base}/dams/api/v1/uploads`,
      headers: { authorization: `Bearer ${token}` },
      metadata: { filename: name },
      uploadDataDuringCreation: true,
      retryDelays: null,
      onError: reject,
      onSuccess: ({ lastResponse }) =>
        resolve((JSON.parse(lastResponse.getBody()) as { data: { upload: { sha256: string } } }).data.upload.sha256),
    });
    upload.start();
  });
}

const agent = new http.Agent({ keepAlive: true });

function bareUpload(base: string, file: Buffer, name: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const request = http.request(`${base}/files/${encodeURIComponent(name)}`, {
      method: "PUT",
      agent,
      headers: { "content-length": String(file.length), "content-type": "application/octet-stream" },
    });
    request.on("error", reject);
    request.on("response", (response) => {
      let body = "";
      response.on("data", (chunk: Buffer) => {
        body += chunk.toString();
      });
      response.on("end", () =>
        response.statusCode === 201
          ? resolve((JSON.parse(body) as { sha256: string }).sha256)
          : reject(new Error(body)),
      );
    });
    request.end(file);
  });
}

async function timed(label: string, run: () => Promise<void>): Promise<number> {
  const started = performance.now();
  await run();
  const seconds = (performance.now() - started) / 1000;
  process.stdout.write(`  ${label}: ${seconds.toFixed(2)} s\n`);
  return seconds;
}

async function inParallel<T>(items: T[], limit: number, work: (item: T, index: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) {
        const index = next++;
        await work(items[index]!, index);
      }
    }),
  );
}

async function main(): Promise<void> {
  const damsPort = 18_710;
  const barePort = 18_711;
  const dams = await start(
    ["server/src/scripts/ingest-bench-server.ts", String(damsPort), path.join(work, "dams")],
    (line) => line.startsWith('{"token"'),
  );
  const { token } = JSON.parse(dams.line) as { token: string };
  const bare = await start(["bench/ingest-bare-server.ts", String(barePort), path.join(work, "bare")], (line) =>
    line.startsWith("listening"),
  );
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
  try {
    // Warm both up (JIT, first database writes), then alternate so drift in the machine's load hits both alike.
    await inParallel(
      photos.slice(0, 20),
      concurrency,
      async (photo, i) => void (await bareUpload(bareBase, photo, `w${i}.jpg`)),
    );
    await inParallel(
      photos.slice(0, 20),
      concurrency,
      async (photo, i) => void (await tusUpload(damsBase, token, photo, `w${i}.jpg`)),
    );
    for (let round = 1; round <= rounds; round++) {
      process.stdout.write(`round ${round}\n`);
      times.bareLarge.push(
        await timed(`bare PUT   ${largeBytes / 2 ** 20} MiB`, async () =>
          check(await bareUpload(bareBase, large, "large.jpg"), largeSha),
        ),
      );
      times.damsLarge.push(
        await timed(`dams tus   ${largeBytes / 2 ** 20} MiB`, async () =>
          check(await tusUpload(damsBase, token, large, "large.jpg"), largeSha),
        ),
      );
      times.bareSmall.push(
        await timed(`bare PUT   ${smallCount} photos`, () =>
          inParallel(photos, concurrency, async (photo, i) =>
            check(await bareUpload(bareBase, photo, `p${i}.jpg`), sha256(photo)),
          ),
        ),
      );
      times.damsSmall.push(
        await timed(`dams tus   ${smallCount} photos`, () =>
          inParallel(photos, concurrency, async (photo, i) =>
            check(await tusUpload(damsBase, token, photo, `p${i}.jpg`), sha256(photo)),
          ),
        ),
      );
    }
  } finally {
    dams.child.kill("SIGTERM");
    bare.child.kill("SIGTERM");
    agent.destroy();
  }

  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  const mibps = (bytes: number, seconds: number) => (bytes / 2 ** 20 / seconds).toFixed(0);
  const largeRatio = mean(times.bareLarge) / mean(times.damsLarge);
  const smallRatio = mean(times.bareSmall) / mean(times.damsSmall);
  process.stdout.write(
    [
      "",
      `ingest on loopback, ${rounds} round(s), mean of each`,
      `  1 file of ${largeBytes / 2 ** 20} MiB: bare ${mibps(largeBytes, mean(times.bareLarge))} MiB/s, dams ${mibps(largeBytes, mean(times.damsLarge))} MiB/s`,
      `    ratio dams / node:http = ${largeRatio.toFixed(3)} (target >= 0.8: ${largeRatio >= 0.8 ? "met" : "NOT met"})`,
      `  ${smallCount} photos (${(photoBytes / 2 ** 20).toFixed(0)} MiB, ${concurrency} at a time): bare ${(smallCount / mean(times.bareSmall)).toFixed(0)} files/s, dams ${(smallCount / mean(times.damsSmall)).toFixed(0)} files/s`,
      `    ratio dams / node:http = ${smallRatio.toFixed(3)}`,
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
