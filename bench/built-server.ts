import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { SERVER_NODE_FLAGS } from "../scripts/node-flags.mjs";
import type { DatabaseConfig } from "../server/src/config.js";

const root = path.resolve(import.meta.dirname, "..");
const cli = path.join(root, "server/dist/cli.js");

/** The built server (`dams serve --no-workers`) in a process of its own, as an operator runs it. */
export interface BuiltServer {
  /** `http://127.0.0.1:<port>` */
  base: string;
  process: ChildProcess;
  /** Stops it (SIGTERM) and waits for it to exit. */
  stop(): Promise<void>;
}

/** The environment of a dams server the benchmarks start on a data dir: local only, no web app, warnings only. */
export function benchServerEnv(port: number, dataDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PORT: String(port),
    HOST: "127.0.0.1",
    DAMS_DATA_DIR: dataDir,
    DAMS_WEB_DIR: path.join(dataDir, "no-web"),
    DAMS_LOG_LEVEL: "warn",
    ...extra,
  };
}

/**
 * Starts server/dist on a data dir and database, workers off, no web app,
 * and waits until `/readyz` answers. A benchmark's client then runs in
 * another process than the server, so the server's CPU (read from /proc)
 * is its own.
 */
export async function startBuiltServer(options: {
  dataDir: string;
  database: DatabaseConfig;
  port: number;
  env?: Record<string, string>;
}): Promise<BuiltServer> {
  if (!fs.existsSync(cli)) throw new Error("server/dist/cli.js is missing: run `npm run build -w server` first");
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, cli, "serve", "--no-workers"], {
    cwd: root,
    env: benchServerEnv(options.port, options.dataDir, {
      DATABASE_URL: options.database.kind === "postgres" ? options.database.url : `sqlite:${options.database.file}`,
      ...options.env,
    }),
    stdio: ["ignore", "ignore", "inherit"],
  });
  const base = `http://127.0.0.1:${options.port}`;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  };
  try {
    await waitForListening(child, `${base}/readyz`);
  } catch (error) {
    await stop();
    throw error;
  }
  return { base, process: child, stop };
}

/** Waits (up to 5 minutes: migrations on a large database take a while) until `url` answers below 500. */
export async function waitForListening(child: ChildProcess, url: string): Promise<void> {
  const deadline = Date.now() + 300_000;
  for (;;) {
    try {
      if ((await fetch(url)).status < 500) return;
    } catch {
      // not up yet
    }
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error(`${url} did not answer in 300 s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
