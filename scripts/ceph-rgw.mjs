// A one-node Ceph S3 gateway (RGW) for tests, benchmarks and trying the
// scale-out topology: one monitor, one OSD on the in-memory `memstore`
// objectstore and RGW, all on 127.0.0.1, run from Debian's own packages
// unpacked into a cache directory (no `apt-get install`, no system services,
// nothing on disk but logs). Facts behind it: ../shared/reference/ceph-rgw.md.
//
//   node scripts/ceph-rgw.mjs start [--dir <run dir>] [--memory-mib 2048]
//       prints the S3 endpoint and credentials as shell exports, leaves the daemons running
//   node scripts/ceph-rgw.mjs stop --dir <run dir>
//   node scripts/ceph-rgw.mjs fetch       downloads and unpacks the packages only
//
// `startRgw()`/`stopRgw()` are what scripts/test.mjs uses. Node built-ins only:
// this runs before any npm package is installed.
import { spawn, spawnSync } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { cacheDirectory, fetchCeph, runQuiet, say } from "./ceph-packages.mjs";

export { cacheDirectory, fetchCeph };

const DAEMONS = ["mon", "osd", "rgw"];
const READY_TIMEOUT_MS = 180_000;

function libraryPath(root) {
  return ["usr/lib/x86_64-linux-gnu", "usr/lib/x86_64-linux-gnu/ceph", "lib/x86_64-linux-gnu"]
    .map((dir) => path.join(root, dir))
    .join(":");
}

function portIsFree(port) {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

/**
 * `count` consecutive free ports below the kernel's ephemeral range (32768 and
 * up), where no `listen(0)` of a parallel test can take them between the check
 * and the daemon's own bind.
 */
async function freePortRange(count) {
  for (let tries = 0; tries < 200; tries++) {
    const base = 20_000 + Math.floor(Math.random() * (12_000 - count));
    let free = true;
    for (let port = base; port < base + count && free; port++) free = await portIsFree(port);
    if (free) return base;
  }
  throw new Error(`no ${count} consecutive free ports found between 20000 and 32000`);
}

function cephConf({ fsid, root, dir, ports, memoryBytes }) {
  // Ceph expands $name itself; the rest is ours.
  return `[global]
fsid = ${fsid}
mon host = v2:127.0.0.1:${ports.mon}
public addr = 127.0.0.1
ms bind port min = ${ports.osdMin}
ms bind port max = ${ports.osdMax}
auth cluster required = none
auth service required = none
auth client required = none
# Without these two, RGW's connection to the monitor fails with error -13 (reference/ceph-rgw.md).
ms mon client mode = crc
ms client mode = crc
osd pool default size = 1
osd pool default min size = 1
osd pool default pg num = 8
mon allow pool size one = true
mon data avail warn = 2
mon data avail crit = 1
osd objectstore = memstore
memstore device bytes = ${memoryBytes}
run dir = ${dir}/run
log file = ${dir}/log/$name.log
admin socket = ${dir}/run/$name.asok
pid file = ${dir}/run/$name.pid
erasure code dir = ${root}/usr/lib/x86_64-linux-gnu/ceph/erasure-code
plugin dir = ${root}/usr/lib/x86_64-linux-gnu/ceph
osd class dir = ${root}/usr/lib/x86_64-linux-gnu/rados-classes
keyring = ${dir}/keyring

[mon.a]
mon data = ${dir}/mon/a

[osd.0]
osd data = ${dir}/osd/0

[client.rgw.a]
rgw frontends = beast endpoint=127.0.0.1:${ports.rgw}
# Deleted objects' tails are collected soon, so a long run does not fill the memory store.
rgw gc obj min wait = 60
rgw gc processor period = 60
`;
}

function waitFor(what, check, timeoutMs, isAlive) {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const attempt = async () => {
      let ok = false;
      try {
        ok = await check();
      } catch {
        ok = false;
      }
      if (ok) return resolve();
      const dead = isAlive?.();
      if (dead) return reject(new Error(`${what}: ${dead}`));
      if (Date.now() > deadline) return reject(new Error(`${what}: not ready after ${timeoutMs / 1000} s`));
      setTimeout(attempt, 250);
    };
    attempt();
  });
}

function accepts(port) {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/**
 * Whether `pid` still runs. A daemon killed while its parent is blocked (npm test
 * waits in spawnSync while the multi-node test stops the gateway) stays a zombie
 * until that parent reaps it; a zombie has stopped and counts as gone.
 */
function processAlive(pid) {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return error.code === "EPERM";
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
    return state !== "Z" && state !== "X";
  } catch {
    // No /proc (not Linux), or the process went in between.
    return !fs.existsSync("/proc");
  }
}

function cephEnv(root) {
  return { ...process.env, LD_LIBRARY_PATH: libraryPath(root) };
}

const DAEMON_COMMANDS = {
  mon: ["ceph-mon", ["-i", "a"]],
  osd: ["ceph-osd", ["-i", "0"]],
  rgw: ["radosgw", ["-n", "client.rgw.a"]],
};

function saveState(state) {
  fs.writeFileSync(path.join(state.dir, "state.json"), `${JSON.stringify(state, null, 2)}\n`);
}

/** Starts one daemon (detached, logging to log/<daemon>.out); returns a check that says why it died, if it did. */
function launchDaemon(state, daemon) {
  const [name, args] = DAEMON_COMMANDS[daemon];
  const out = fs.openSync(path.join(state.dir, "log", `${daemon}.out`), "a");
  const child = spawn(path.join(state.root, "usr/bin", name), [...args, "-f", "-c", state.conf], {
    env: cephEnv(state.root),
    cwd: state.dir,
    detached: true,
    stdio: ["ignore", out, out],
  });
  fs.closeSync(out);
  child.unref();
  state.pids[daemon] = child.pid;
  saveState(state);
  return () => (processAlive(child.pid) ? null : `${name} exited; see ${path.join(state.dir, "log")}`);
}

/** Stops the S3 gateway alone (SIGKILL, like a crash); the monitor and the OSD keep the objects. */
export async function stopGateway(dir) {
  const state = readState(dir);
  const pid = state?.pids?.rgw;
  if (!pid) return;
  try {
    process.kill(pid, "SIGKILL");
  } catch {}
  while (processAlive(pid)) await new Promise((resolve) => setTimeout(resolve, 50));
}

/** Starts the S3 gateway again after stopGateway; resolves when it answers. */
export async function startGateway(dir) {
  const state = readState(dir);
  state.root ??= path.join(cacheDirectory(), "root");
  state.conf ??= path.join(dir, "ceph.conf");
  const dead = launchDaemon(state, "rgw");
  await waitFor("radosgw", () => accepts(state.ports.rgw), READY_TIMEOUT_MS, dead);
}

/** The state a running instance recorded in its directory (endpoint, credentials, pids), or null. */
export function readRgwState(dir) {
  return readState(dir);
}

function readState(dir) {
  const file = path.join(dir, "state.json");
  return fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")) : null;
}

/**
 * Starts mon, OSD and RGW in `dir` (a new temporary directory by default) and
 * makes an S3 user. Resolves with the endpoint and credentials once RGW
 * answers; the daemons keep running (detached) until `stopRgw(dir)`.
 * @param {{ dir?: string, memoryMiB?: number }} [options]
 */
export async function startRgw(options = {}) {
  const root = fetchCeph();
  const dir = options.dir ? path.resolve(options.dir) : fs.mkdtempSync(path.join(os.tmpdir(), "dams-rgw-"));
  for (const sub of ["run", "log", "mon/a", "osd/0"]) fs.mkdirSync(path.join(dir, sub), { recursive: true });
  const base = await freePortRange(22);
  const ports = { mon: base, rgw: base + 1, osdMin: base + 2, osdMax: base + 21 };
  const memoryBytes = (options.memoryMiB ?? 2048) * 1024 * 1024;
  const fsid = randomUUID();
  const conf = path.join(dir, "ceph.conf");
  fs.writeFileSync(conf, cephConf({ fsid, root, dir, ports, memoryBytes }));
  const env = cephEnv(root);
  const bin = (name) => path.join(root, "usr/bin", name);
  const tool = (name, args) => runQuiet(bin(name), args, { env, cwd: dir });

  const state = { dir, root, conf, ports, pids: {}, endpoint: `http://127.0.0.1:${ports.rgw}` };
  const launch = (daemon) => launchDaemon(state, daemon);

  try {
    tool("ceph-authtool", [
      "--create-keyring",
      path.join(dir, "keyring"),
      "--gen-key",
      "-n",
      "mon.",
      "--cap",
      "mon",
      "allow *",
    ]);
    tool("monmaptool", [
      "--create",
      "--addv",
      "a",
      `[v2:127.0.0.1:${ports.mon}]`,
      "--fsid",
      fsid,
      path.join(dir, "monmap"),
    ]);
    tool("osdmaptool", ["--createsimple", "1", "--clobber", path.join(dir, "osdmap"), "--with-default-pool"]);
    tool("ceph-mon", [
      "--mkfs",
      "-i",
      "a",
      "-c",
      conf,
      "--monmap",
      path.join(dir, "monmap"),
      "--osdmap",
      path.join(dir, "osdmap"),
    ]);
    const monDead = launch("mon");
    await waitFor("ceph-mon", () => accepts(ports.mon), READY_TIMEOUT_MS, monDead);
    tool("ceph-osd", ["-i", "0", "-c", conf, "--mkfs", "--osd-uuid", randomUUID()]);
    const osdDead = launch("osd");
    const rgwDead = launch("rgw");
    const anyDead = () => monDead() ?? osdDead() ?? rgwDead();
    await waitFor("radosgw", () => accepts(ports.rgw), READY_TIMEOUT_MS, anyDead);
    // RGW listens before its pools exist; creating the user works once they do.
    const credentials = {
      accessKeyId: `DAMS${randomBytes(8).toString("hex").toUpperCase()}`,
      secretAccessKey: randomBytes(24).toString("base64url"),
    };
    await waitFor(
      "the S3 user",
      async () => {
        const result = spawnSync(
          bin("radosgw-admin"),
          [
            "-c",
            conf,
            "-n",
            "client.rgw.a",
            "user",
            "create",
            "--uid=dams",
            "--display-name=dams",
            `--access-key=${credentials.accessKeyId}`,
            `--secret=${credentials.secretAccessKey}`,
          ],
          { env, cwd: dir, encoding: "utf8", timeout: 60_000 },
        );
        return result.status === 0;
      },
      READY_TIMEOUT_MS,
      anyDead,
    );
    Object.assign(state, credentials, { region: "us-east-1" });
    saveState(state);
    return state;
  } catch (error) {
    await stopRgw(dir);
    throw error;
  }
}

/** Stops the daemons of the run in `dir` (by the pids it recorded) and removes the directory. */
export async function stopRgw(dir, { keep = false } = {}) {
  const state = readState(dir);
  const pids = Object.values(state?.pids ?? {}).filter((pid) => Number.isInteger(pid));
  // RGW first, the monitor last: each stops cleanly while the ones it talks to still run.
  const ordered = DAEMONS.map((daemon) => state?.pids?.[daemon])
    .filter((pid) => pids.includes(pid))
    .reverse();
  for (const pid of ordered) {
    try {
      process.kill(pid, "SIGTERM");
    } catch {}
  }
  const deadline = Date.now() + 10_000;
  while (ordered.some(processAlive) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  for (const pid of ordered.filter(processAlive)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {}
  }
  if (!keep) fs.rmSync(dir, { recursive: true, force: true });
}

/**
 * The last resort of a run that is ending (an exception, Ctrl-C): kills the
 * daemons at once (memstore keeps nothing worth a clean stop) and removes the
 * directory. Synchronous, so it works in an 'exit' handler.
 */
export function killRgwNow(dir) {
  const state = readState(dir);
  for (const pid of Object.values(state?.pids ?? {})) {
    try {
      if (Number.isInteger(pid)) process.kill(pid, "SIGKILL");
    } catch {}
  }
  fs.rmSync(dir, { recursive: true, force: true });
}

/** The environment a process needs to use a running RGW as dams's blob store. */
export function s3Environment(state, bucket) {
  return {
    DAMS_STORAGE: "s3",
    S3_ENDPOINT: state.endpoint,
    S3_BUCKET: bucket,
    S3_REGION: state.region,
    S3_FORCE_PATH_STYLE: "true",
    S3_ACCESS_KEY_ID: state.accessKeyId,
    S3_SECRET_ACCESS_KEY: state.secretAccessKey,
  };
}

function option(args, name) {
  const index = args.indexOf(name);
  return index >= 0 ? args[index + 1] : undefined;
}

if (import.meta.filename === path.resolve(process.argv[1] ?? "")) {
  const [command, ...args] = process.argv.slice(2);
  try {
    if (command === "fetch") {
      process.stdout.write(`${fetchCeph()}\n`);
    } else if (command === "start") {
      const memory = option(args, "--memory-mib");
      const state = await startRgw({ dir: option(args, "--dir"), memoryMiB: memory ? Number(memory) : undefined });
      say(`RGW answers at ${state.endpoint}; stop with: node scripts/ceph-rgw.mjs stop --dir ${state.dir}`);
      process.stdout.write(
        `export DAMS_TEST_S3_ENDPOINT=${state.endpoint} DAMS_TEST_S3_ACCESS_KEY_ID=${state.accessKeyId} DAMS_TEST_S3_SECRET_ACCESS_KEY=${state.secretAccessKey} DAMS_TEST_RGW_DIR=${state.dir}\n`,
      );
    } else if (command === "stop") {
      const dir = option(args, "--dir") ?? process.env.DAMS_TEST_RGW_DIR;
      if (!dir) throw new Error("give the run directory: stop --dir <dir> (printed by start)");
      await stopRgw(dir);
    } else {
      process.stderr.write(
        "usage: node scripts/ceph-rgw.mjs start [--dir <dir>] [--memory-mib N] | stop --dir <dir> | fetch\n",
      );
      process.exit(2);
    }
  } catch (error) {
    say(error.message);
    process.exit(1);
  }
}
