// The set-up both README commands share: install what is missing, build what
// is stale, and skip what is already done. Node built-ins only: this runs
// before any npm package is installed.
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fetchCeph } from "./ceph-rgw.mjs";

export const root = path.resolve(import.meta.dirname, "..");
const stampDir = path.join(root, ".dams-stamps");

export function log(message) {
  process.stdout.write(`[dams] ${message}\n`);
}

export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit", ...options });
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(" ")} failed with exit code ${result.status ?? result.signal}`);
  }
}

function has(command) {
  return spawnSync("sh", ["-c", `command -v ${command}`], { stdio: "ignore" }).status === 0;
}

function checkNode() {
  const [major, minor] = process.versions.node.split(".").map(Number);
  if (major < 20 || (major === 20 && minor < 19)) {
    throw new Error(`dams needs Node.js 20.19 or newer; this is ${process.version}`);
  }
}

/** Content hash of files and folders, so a rebuild happens exactly when an input changed. */
function hashInputs(inputs) {
  const hash = createHash("sha256");
  const visit = (target) => {
    if (!fs.existsSync(target)) return;
    const stat = fs.statSync(target);
    if (stat.isDirectory()) {
      for (const entry of fs.readdirSync(target).sort()) {
        if (entry === "node_modules" || entry === "dist") continue;
        visit(path.join(target, entry));
      }
      return;
    }
    hash.update(path.relative(root, target));
    hash.update(fs.readFileSync(target));
  };
  for (const input of inputs) visit(path.join(root, input));
  return hash.digest("hex");
}

/** Runs `work` unless the stamp says the same inputs were already handled. */
function once(name, inputs, outputs, work) {
  const digest = hashInputs(inputs);
  const stampFile = path.join(stampDir, name);
  const done =
    fs.existsSync(stampFile) &&
    fs.readFileSync(stampFile, "utf8") === digest &&
    outputs.every((output) => fs.existsSync(path.join(root, output)));
  if (done) return false;
  work();
  fs.mkdirSync(stampDir, { recursive: true });
  fs.writeFileSync(stampFile, digest);
  return true;
}

/** How long apt-get waits for another install's lock before it gives up. */
const APT_LOCK_WAIT_SECONDS = 900;
let aptUpdated = false;
/** @param {{ package: string, present: () => boolean }[]} packages */
function aptInstall(packages, why) {
  const missing = packages.filter((entry) => !entry.present());
  if (missing.length === 0) return;
  const names = missing.map((entry) => entry.package);
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  if (!isRoot || !has("apt-get")) {
    log(`${names.join(", ")} not found; ${why}. Install with: sudo apt-get install ${names.join(" ")}`);
    return;
  }
  log(`installing ${names.join(", ")} with apt-get (${why})`);
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  // Another install (unattended-upgrades, a second `npm test`) may hold the package manager's locks: wait for
  // them, up to 15 minutes, instead of failing at once.
  const wait = ["-o", `DPkg::Lock::Timeout=${APT_LOCK_WAIT_SECONDS}`];
  if (!aptUpdated) {
    run("apt-get", [...wait, "update", "-qq"], { env });
    aptUpdated = true;
  }
  run("apt-get", [...wait, "install", "-y", "-qq", "--no-install-recommends", ...names], { env });
}

/**
 * @param {{ browser?: boolean, testServers?: boolean }} options browser: also install Chromium (for the
 *   end-to-end tests); testServers: also fetch Ceph RGW's packages (scripts/ceph-rgw.mjs) and install HAProxy and litmus
 */
export function setup(options = {}) {
  checkNode();
  const started = Date.now();

  once("npm", ["package-lock.json", "package.json"], ["node_modules/.package-lock.json"], () => {
    log("installing npm dependencies");
    // `npm install` rather than `npm ci`: npm 11 writes lock files without the
    // other platforms' optional packages (biome, esbuild) and then `npm ci`
    // refuses them as out of sync. With an unchanged package.json, `npm
    // install` installs exactly what the lock file pins.
    run("npm", ["install", "--no-audit", "--no-fund"]);
  });

  aptInstall(
    [
      { package: "ffmpeg", present: () => has("ffmpeg") && has("ffprobe") },
      { package: "libimage-exiftool-perl", present: () => has("exiftool") },
      { package: "fonts-noto-cjk", present: () => fs.existsSync("/usr/share/fonts/opentype/noto") },
    ],
    "dams uses ffmpeg for video and audio, exiftool for camera metadata that exifr cannot read (and as the tests' reference reader), and the Noto CJK fonts for text the video editor draws (中文 included)",
  );
  aptInstall(
    [{ package: "openssh-server", present: () => fs.existsSync("/usr/sbin/sshd") }],
    "the SFTP channel's tests deliver to OpenSSH's sshd, which they start on a high port (never as a service)",
  );
  if (options.browser) {
    aptInstall([{ package: "chromium", present: () => has("chromium") }], "the end-to-end tests drive Chromium");
  }

  if (options.testServers) {
    aptInstall(
      [{ package: "litmus", present: () => has("litmus") }],
      "the WebDAV test runs litmus, the WebDAV conformance suite, against /dav/",
    );
    aptInstall(
      [{ package: "haproxy", present: () => has("haproxy") || fs.existsSync("/usr/sbin/haproxy") }],
      "the multi-node test and scripts/scale-out.mjs put HAProxy in front of the API nodes",
    );
    // Downloaded and unpacked once into a cache outside the repository, never installed as services.
    // A failure here is reported again by the test step that starts RGW.
    try {
      fetchCeph();
    } catch (error) {
      log(`Ceph RGW's packages could not be fetched: ${error.message}`);
    }
  }

  once(
    "server",
    [
      "server/src",
      "server/package.json",
      "server/tsconfig.json",
      "server/tsconfig.build.json",
      "tsconfig.base.json",
      "package-lock.json",
    ],
    ["server/dist/cli.js"],
    () => {
      log("building the server");
      fs.rmSync(path.join(root, "server/dist"), { recursive: true, force: true });
      run("npm", ["run", "build", "-w", "server"]);
    },
  );
  once(
    "web",
    [
      "web/src",
      "web/public",
      "web/index.html",
      "web/package.json",
      "web/vite.config.ts",
      "web/vite-plugins",
      "web/tsconfig.json",
      "server/src/shared",
      "package-lock.json",
    ],
    ["web/dist/index.html"],
    () => {
      log("building the web app");
      run("npm", ["run", "build", "-w", "web"]);
    },
  );
  log(`set-up done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

export function gitRevision() {
  try {
    return execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: root, encoding: "utf8" }).trim();
  } catch {
    return "unknown";
  }
}
