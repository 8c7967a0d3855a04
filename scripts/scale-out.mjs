// The scale-out topology of DESIGN.md section 5 on one machine, all on
// loopback: a PostgreSQL of its own (Debian's binaries, a temporary cluster on
// a free port), Ceph RGW (scripts/ceph-rgw.mjs), N `dams serve --no-workers`
// behind HAProxy (round-robin, no stickiness) and M `dams worker` processes.
// The multi-node test (server/src/scale-out/) drives it; a person can try it:
//
//   node scripts/scale-out.mjs [--api 2] [--workers 2]
//       builds what is missing, starts everything, prints the address and the
//       administrator's password, and stops it all on Ctrl-C.
//
// `startTopology()` is what the test uses. Node built-ins, plus the AWS SDK
// from node_modules for the bucket.
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { killRgwNow, startRgw, stopRgw } from "./ceph-rgw.mjs";
import { SERVER_NODE_FLAGS } from "./node-flags.mjs";

const root = path.resolve(import.meta.dirname, "..");
const cli = path.join(root, "server/dist/cli.js");
const READY_TIMEOUT_MS = 120_000;

function say(message) {
  process.stderr.write(`[scale-out] ${message}\n`);
}

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { encoding: "utf8", ...options });
  if (result.error) throw new Error(`${command}: ${result.error.message}`);
  if (result.status !== 0) {
    throw new Error(
      `${command} ${args.join(" ")} failed (${result.status}): ${`${result.stdout}${result.stderr}`.trim()}`,
    );
  }
  return result.stdout;
}

function canListen(port) {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

/** A free port below the ephemeral range, where parallel `listen(0)` calls cannot take it first. */
export async function freePort() {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (await canListen(port)) return port;
  }
}

async function until(what, check, timeoutMs = READY_TIMEOUT_MS) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if (await check()) return;
    } catch {}
    if (Date.now() > deadline) throw new Error(`${what}: not ready after ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Waits for `promise`, at most `ms`; the timer does not outlive the wait. */
async function atMost(promise, ms) {
  let timer;
  await Promise.race([promise, new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === "EPERM";
  }
}

/** Kills a process group we started (the process and what it spawned, ffmpeg included). */
function killGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
  } catch {}
}

// ── PostgreSQL ────────────────────────────────────────────────────────────

function postgresBin() {
  const base = "/usr/lib/postgresql";
  const versions = fs.existsSync(base) ? fs.readdirSync(base).filter((entry) => /^\d+$/.test(entry)) : [];
  const version = versions.sort((a, b) => Number(a) - Number(b)).at(-1);
  const bin = version ? path.join(base, version, "bin") : null;
  if (!bin || !fs.existsSync(path.join(bin, "initdb"))) {
    throw new Error("PostgreSQL's server binaries (initdb, pg_ctl) are not in /usr/lib/postgresql/<version>/bin");
  }
  return bin;
}

/**
 * A PostgreSQL cluster of its own in a temporary directory, on a free port,
 * so the topology can restart it without touching anyone else's. initdb
 * refuses to run as root: then it runs as the `postgres` user.
 */
async function startPostgres() {
  const bin = postgresBin();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dams-pg-"));
  fs.chmodSync(dir, 0o755);
  const data = path.join(dir, "data");
  const port = await freePort();
  const asRoot = typeof process.getuid === "function" && process.getuid() === 0;
  const wrap = (command, args) => (asRoot ? ["runuser", ["-u", "postgres", "--", command, ...args]] : [command, args]);
  if (asRoot) {
    fs.mkdirSync(data, { mode: 0o700 });
    run("chown", ["postgres:postgres", data, dir]);
  }
  // The server inherits pg_ctl's output: with a pipe there, spawnSync would wait for the server to end.
  const pgCtl = (...args) =>
    run(...wrap(path.join(bin, "pg_ctl"), ["-D", data, ...args]), {
      stdio: "ignore",
      timeout: 120_000,
    });
  const log = path.join(dir, "postgres.log");
  run(...wrap(path.join(bin, "initdb"), ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"]));
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c max_connections=200`;
  pgCtl("-o", options, "-l", log, "-w", "start");
  run(...wrap(path.join(bin, "createdb"), ["-h", "127.0.0.1", "-p", String(port), "-U", "postgres", "dams"]));
  return {
    dir,
    url: `postgres://postgres@127.0.0.1:${port}/dams`,
    /** A fast restart: every connection is cut, as when the server or its machine restarts. */
    restart: () => pgCtl("-o", options, "-l", log, "-m", "fast", "-w", "restart"),
    stop() {
      try {
        pgCtl("-m", "immediate", "-w", "stop");
      } catch {}
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

// ── dams processes ────────────────────────────────────────────────────────

/** One `dams serve --no-workers` or `dams worker` process that can be killed and started again. */
class DamsProcess {
  constructor({ name, kind, args, env, dir, port }) {
    Object.assign(this, { name, kind, args, env, port });
    this.logFile = path.join(dir, `${name}.log`);
    this.url = port ? `http://127.0.0.1:${port}` : null;
    this.pid = null;
  }

  start() {
    const out = fs.openSync(this.logFile, "a");
    // A process group of its own: a kill takes its ffmpeg children with it, like a machine going away.
    const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, cli, ...this.args], {
      env: this.env,
      cwd: root,
      detached: true,
      stdio: ["ignore", out, out],
    });
    fs.closeSync(out);
    this.pid = child.pid;
    this.exited = new Promise((resolve) => child.once("exit", resolve));
    return this.ready();
  }

  async ready() {
    if (this.kind === "api") {
      await until(`${this.name} /readyz`, async () => (await fetch(`${this.url}/readyz`)).status === 200);
    } else {
      await until(`${this.name} worker`, () => this.log().includes("job worker started"));
    }
  }

  log() {
    return fs.existsSync(this.logFile) ? fs.readFileSync(this.logFile, "utf8") : "";
  }

  /** SIGKILL: no goodbye, leases and locks left behind. */
  async kill() {
    if (!this.pid) return;
    killGroup(this.pid, "SIGKILL");
    await this.exited;
    this.pid = null;
  }

  /** SIGTERM and a graceful close (jobs handed back), then whatever is left is killed. */
  async stop() {
    if (!this.pid) return;
    killGroup(this.pid, "SIGTERM");
    await atMost(this.exited, 20_000);
    killGroup(this.pid, "SIGKILL");
    this.pid = null;
  }
}

// ── HAProxy ───────────────────────────────────────────────────────────────

function haproxyConfig(port, servers) {
  return `global
  maxconn 2000

defaults
  mode http
  option forwardfor
  # No stickiness: every request may reach any node.
  balance roundrobin
  timeout connect 5s
  # Longer than dams's request timeout (120 s), so dams ends slow requests with its own answer.
  timeout client 150s
  timeout server 150s
  # A node that refuses connections (killed) is skipped, the request sent to another.
  option redispatch
  retries 2
  retry-on conn-failure empty-response

frontend dams
  bind 127.0.0.1:${port}
  default_backend api

backend api
  option httpchk GET /readyz
  http-check expect status 200
  default-server inter 1s fall 2 rise 1
${servers.map((server) => `  server ${server.name} 127.0.0.1:${server.port} check`).join("\n")}
`;
}

async function startHaproxy(dir, port, servers) {
  const config = path.join(dir, "haproxy.cfg");
  fs.writeFileSync(config, haproxyConfig(port, servers));
  run("haproxy", ["-c", "-q", "-f", config]);
  const out = fs.openSync(path.join(dir, "haproxy.log"), "a");
  const child = spawn("haproxy", ["-db", "-f", config], { detached: true, stdio: ["ignore", out, out] });
  fs.closeSync(out);
  const exited = new Promise((resolve) => child.once("exit", resolve));
  return {
    pid: child.pid,
    async stop() {
      killGroup(child.pid, "SIGTERM");
      await atMost(exited, 5000);
      killGroup(child.pid, "SIGKILL");
    },
  };
}

// ── the topology ──────────────────────────────────────────────────────────

async function createBucket(rgw, bucket) {
  const { S3Client, CreateBucketCommand } = await import("@aws-sdk/client-s3");
  const client = new S3Client({
    region: rgw.region,
    endpoint: rgw.endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: rgw.accessKeyId, secretAccessKey: rgw.secretAccessKey },
  });
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  client.destroy();
}

/**
 * Starts PostgreSQL, RGW (or uses the running one in `options.rgw`), the API
 * nodes, the workers and HAProxy. Resolves once the load balancer answers.
 * @param {{ api?: number, workers?: number, rgw?: object, env?: Record<string,string>, workerEnv?: Record<string,string>, adminPassword?: string }} [options]
 */
export async function startTopology(options = {}) {
  if (!fs.existsSync(cli)) throw new Error(`${cli} is missing: build the server first (npm run build -w server)`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dams-scale-out-"));
  const stops = [];
  // A test runner killed mid-run leaves nothing behind: whatever is still running goes with this process.
  const killNow = () => {
    for (const stop of stops.splice(0).reverse()) stop.now?.();
    fs.rmSync(dir, { recursive: true, force: true });
  };
  process.once("exit", killNow);
  const stopAll = async () => {
    process.removeListener("exit", killNow);
    for (const stop of stops.splice(0).reverse()) {
      await stop().catch((error) => say(`stopping: ${error.message}`));
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    const postgres = await startPostgres();
    stops.push(Object.assign(async () => postgres.stop(), { now: () => postgres.stop() }));
    const ownRgw = !options.rgw;
    const rgw = options.rgw ?? (await startRgw({ memoryMiB: 3072 }));
    if (ownRgw) stops.push(Object.assign(() => stopRgw(rgw.dir), { now: () => killRgwNow(rgw.dir) }));
    const bucket = `dams-${randomBytes(5).toString("hex")}`;
    await createBucket(rgw, bucket);

    const lbPort = await freePort();
    const url = `http://127.0.0.1:${lbPort}`;
    const adminPassword = options.adminPassword ?? randomBytes(9).toString("base64url");
    const common = {
      ...process.env,
      DATABASE_URL: postgres.url,
      DAMS_STORAGE: "s3",
      S3_ENDPOINT: rgw.endpoint,
      S3_BUCKET: bucket,
      S3_REGION: rgw.region,
      S3_FORCE_PATH_STYLE: "true",
      S3_ACCESS_KEY_ID: rgw.accessKeyId,
      S3_SECRET_ACCESS_KEY: rgw.secretAccessKey,
      // One address for every node: the sign-in issuer and the links it makes.
      DAMS_PUBLIC_URL: url,
      DAMS_TRUST_PROXY: "true",
      DAMS_ADMIN_PASSWORD: adminPassword,
      DAMS_LOG_LEVEL: "info",
      ...options.env,
    };
    const api = [];
    for (let index = 0; index < (options.api ?? 2); index++) {
      const name = `api-${String.fromCharCode(97 + index)}`;
      const port = await freePort();
      const env = { ...common, HOST: "127.0.0.1", PORT: String(port), DAMS_DATA_DIR: path.join(dir, name) };
      api.push(new DamsProcess({ name, kind: "api", args: ["serve", "--no-workers"], env, dir, port }));
    }
    const workers = [];
    for (let index = 0; index < (options.workers ?? 2); index++) {
      const name = `worker-${index + 1}`;
      const env = { ...common, DAMS_WORKERS: "1", DAMS_DATA_DIR: path.join(dir, name), ...options.workerEnv };
      workers.push(new DamsProcess({ name, kind: "worker", args: ["worker"], env, dir }));
    }
    for (const node of [...api, ...workers]) {
      stops.push(Object.assign(() => node.stop(), { now: () => node.pid && killGroup(node.pid, "SIGKILL") }));
    }
    // The first node migrates the new database alone; the others find it ready.
    await api[0].start();
    await Promise.all([...api.slice(1), ...workers].map((node) => node.start()));
    const haproxy = await startHaproxy(dir, lbPort, api);
    stops.push(Object.assign(() => haproxy.stop(), { now: () => killGroup(haproxy.pid, "SIGKILL") }));
    await until("HAProxy with every API node up", async () => {
      const answers = await Promise.all(api.map(() => fetch(`${url}/readyz`).then((response) => response.status)));
      return answers.every((status) => status === 200);
    });
    return { dir, url, adminPassword, postgres, rgw, bucket, api, workers, haproxy, stop: stopAll };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

function option(args, name, fallback) {
  const index = args.indexOf(name);
  return index >= 0 ? Number(args[index + 1]) : fallback;
}

if (import.meta.filename === path.resolve(process.argv[1] ?? "")) {
  const args = process.argv.slice(2);
  const { setup } = await import("./setup.mjs");
  setup({ testServers: true });
  say("starting PostgreSQL, Ceph RGW, the API nodes, the workers and HAProxy…");
  const topology = await startTopology({ api: option(args, "--api", 2), workers: option(args, "--workers", 2) });
  const nodes = topology.api.map((node) => `${node.name} ${node.url} (pid ${node.pid})`).join(", ");
  const workers = topology.workers.map((node) => `${node.name} (pid ${node.pid})`).join(", ");
  process.stdout.write(
    `\n  dams behind HAProxy: ${topology.url}   (sign in as admin / ${topology.adminPassword})\n` +
      `  API nodes: ${nodes}\n  workers: ${workers}\n  PostgreSQL: ${topology.postgres.url}\n` +
      `  Ceph RGW: ${topology.rgw.endpoint}, bucket ${topology.bucket}\n  logs: ${topology.dir}\n` +
      "  Ctrl-C stops everything.\n\n",
  );
  let stopping = false;
  for (const signal of ["SIGINT", "SIGTERM"]) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      say("stopping…");
      topology.stop().then(() => process.exit(0));
    });
  }
  setInterval(() => {
    for (const node of [...topology.api, ...topology.workers]) {
      if (!node.pid || alive(node.pid)) continue;
      say(`${node.name} exited; see ${node.logFile}`);
      node.pid = null;
    }
  }, 5000);
}
