// The Debian packages Ceph's S3 gateway (RGW) runs from, downloaded and
// unpacked into a cache directory without installing them (no system services).
// Used by scripts/ceph-rgw.mjs and, ahead of the tests, by scripts/setup.mjs.
// Node built-ins only: this runs before any npm package is installed.
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/** The Debian (bookworm) packages whose files RGW, the monitor, the OSD and radosgw-admin need. */
const PACKAGES = [
  "ceph-base",
  "ceph-common",
  "ceph-mon",
  "ceph-osd",
  "radosgw",
  "librados2",
  "libradosstriper1",
  "librgw2",
  "libcephfs2",
  "librbd1",
  "libboost-context1.74.0",
  "libboost-python1.74.0",
  "libboost-thread1.74.0",
  "libfmt9",
  "libnl-3-200",
  "libnl-route-3-200",
  "libibverbs1",
  "librdmacm1",
  "libtcmalloc-minimal4",
  "libgoogle-perftools4",
  "liblua5.3-0",
  "liboath0",
  "libleveldb1d",
  "libdaxctl1",
  "libndctl6",
  "libpmem1",
  "libinih1",
  "liburcu8",
  "libfuse2",
];

export function say(message) {
  process.stderr.write(`[ceph-rgw] ${message}\n`);
}

function isRoot() {
  return typeof process.getuid === "function" && process.getuid() === 0;
}

/** Where the packages are downloaded and unpacked, once for every run on this machine. */
export function cacheDirectory() {
  if (process.env.DAMS_CEPH_CACHE) return path.resolve(process.env.DAMS_CEPH_CACHE);
  if (isRoot()) return "/var/cache/dams-ceph";
  return path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), ".cache"), "dams-ceph");
}

export function runQuiet(command, args, options = {}) {
  const result = spawnSync(command, args, { encoding: "utf8", ...options });
  if (result.error) throw new Error(`${command}: ${result.error.message}`);
  if (result.status !== 0) {
    const output = `${result.stdout ?? ""}${result.stderr ?? ""}`.trim().split("\n").slice(-15).join("\n");
    throw new Error(`${command} ${args.join(" ")} exited with ${result.status ?? result.signal}:\n${output}`);
  }
  return result.stdout ?? "";
}

/**
 * Downloads the packages with `apt-get download` and unpacks them with
 * `dpkg-deb -x` into `<cache>/root`; skipped when a previous run finished it.
 * The tree is unpacked beside its final place and renamed, so a run cut
 * short leaves nothing half-made behind.
 */
export function fetchCeph(cache = cacheDirectory()) {
  const root = path.join(cache, "root");
  const marker = path.join(root, ".dams-complete");
  const wanted = PACKAGES.join("\n");
  if (fs.existsSync(marker) && fs.readFileSync(marker, "utf8") === wanted) return root;
  for (const command of ["apt-get", "dpkg-deb"]) {
    if (spawnSync("sh", ["-c", `command -v ${command}`]).status !== 0) {
      throw new Error(`${command} not found: Ceph RGW is taken from Debian's packages (Debian 12 or later)`);
    }
  }
  const debs = path.join(cache, "debs");
  fs.mkdirSync(debs, { recursive: true });
  const missing = PACKAGES.filter((name) => !fs.readdirSync(debs).some((file) => file.startsWith(`${name}_`)));
  if (missing.length > 0) {
    say(`downloading ${missing.length} Debian packages into ${debs}`);
    try {
      runQuiet("apt-get", ["download", ...missing], { cwd: debs });
    } catch (error) {
      // Package lists older than the mirror's files answer 404: refresh them once and try again.
      if (!isRoot()) throw error;
      say("apt-get download failed; refreshing the package lists (apt-get update) and trying again");
      runQuiet("apt-get", ["update", "-qq", "-o", "DPkg::Lock::Timeout=600"]);
      runQuiet("apt-get", ["download", ...missing], { cwd: debs });
    }
  }
  const staging = `${root}.${process.pid}.${randomBytes(3).toString("hex")}`;
  fs.rmSync(staging, { recursive: true, force: true });
  fs.mkdirSync(staging, { recursive: true });
  for (const name of PACKAGES) {
    // The newest file of each package, should several versions have been downloaded over time.
    const file = fs
      .readdirSync(debs)
      .filter((entry) => entry.startsWith(`${name}_`) && entry.endsWith(".deb"))
      .sort()
      .at(-1);
    runQuiet("dpkg-deb", ["-x", path.join(debs, file), staging]);
  }
  fs.writeFileSync(path.join(staging, ".dams-complete"), wanted);
  fs.rmSync(root, { recursive: true, force: true });
  fs.renameSync(staging, root);
  say(`unpacked into ${root}`);
  return root;
}
