import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";

/**
 * Requests/s of a small API route (GET /dams/api/v1/system/info, through the
 * whole dams stack: security headers, metrics, zod serialisation) against a
 * bare node:http server answering the same JSON, in the same run, on the same
 * machine. Prints the ratio; the target is at least 0.9.
 *
 *   npm run bench -w bench              (the built server: run `npm start` or the set-up once first)
 *   BENCH_SECONDS=20 npm run bench -w bench
 */
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const rounds = Number(process.env.BENCH_ROUNDS ?? 2);
const connections = 50;
const route = "/dams/api/v1/system/info";
const root = path.resolve(import.meta.dirname, "..");
const cli = path.join(root, "server/dist/cli.js");

function waitForListening(child: ChildProcess, url: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + 30_000;
    const poll = async () => {
      try {
        if ((await fetch(url)).ok) return resolve();
      } catch {
        // not up yet
      }
      if (child.exitCode !== null) return reject(new Error(`server exited with ${child.exitCode}`));
      if (Date.now() > deadline) return reject(new Error(`${url} did not answer in 30 s`));
      setTimeout(poll, 200);
    };
    void poll();
  });
}

async function load(url: string): Promise<number> {
  const result = await autocannon({ url, connections, duration: seconds, pipelining: 1 });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result.requests.average;
}

async function startDams(port: number, logLevel: string): Promise<ChildProcess> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "dams-bench-"));
  const child = spawn(process.execPath, [cli, "serve"], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DAMS_DATA_DIR: dataDir,
      DAMS_LOG_LEVEL: logLevel,
      DAMS_ADMIN_PASSWORD: "bench-password",
    },
    stdio: "ignore",
  });
  await waitForListening(child, `http://127.0.0.1:${port}/readyz`);
  return child;
}

async function main(): Promise<void> {
  if (!fs.existsSync(cli))
    throw new Error("server/dist/cli.js is missing: run `npm start` once, or `npm run build -w server`");
  const damsPort = 18_700;
  const barePort = 18_701;

  const dams = await startDams(damsPort, "warn");
  const sample = await (await fetch(`http://127.0.0.1:${damsPort}${route}`)).text();
  const bare = spawn(
    process.execPath,
    ["--import", "tsx", path.join(import.meta.dirname, "bare-server.ts"), String(barePort), sample],
    { stdio: "ignore" },
  );
  await waitForListening(bare, `http://127.0.0.1:${barePort}${route}`);

  const damsRuns: number[] = [];
  const bareRuns: number[] = [];
  try {
    // Warm both up, then alternate so drift in the machine's load hits both alike.
    await autocannon({ url: `http://127.0.0.1:${damsPort}${route}`, connections, duration: 2 });
    await autocannon({ url: `http://127.0.0.1:${barePort}${route}`, connections, duration: 2 });
    for (let round = 0; round < rounds; round++) {
      bareRuns.push(await load(`http://127.0.0.1:${barePort}${route}`));
      damsRuns.push(await load(`http://127.0.0.1:${damsPort}${route}`));
    }
  } finally {
    dams.kill("SIGTERM");
    bare.kill("SIGTERM");
  }

  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  const ratio = mean(damsRuns) / mean(bareRuns);
  const format = (values: number[]) => values.map((value) => value.toFixed(0)).join(", ");
  process.stdout.write(
    [
      `GET ${route}, ${connections} connections, ${rounds} × ${seconds} s each, log level warn`,
      `  bare node:http  req/s: ${format(bareRuns)} (mean ${mean(bareRuns).toFixed(0)})`,
      `  dams API        req/s: ${format(damsRuns)} (mean ${mean(damsRuns).toFixed(0)})`,
      `  ratio dams / node:http = ${ratio.toFixed(3)} (target >= 0.9: ${ratio >= 0.9 ? "met" : "NOT met"})`,
      "",
    ].join("\n"),
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
