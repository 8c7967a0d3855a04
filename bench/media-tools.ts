import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";

/** Shared helpers of the media benchmarks: tools installed on demand, processes timed with their peak memory. */

export function has(command: string): boolean {
  return spawnSync("sh", ["-c", 'command -v "$1"', "sh", command], { stdio: "ignore" }).status === 0;
}

/** Installs Debian packages when a tool is missing and we are root (as on CI); otherwise says what to install. */
export function ensureDebianPackages(wanted: { command: string; path?: string; package: string }[]): void {
  const missing = wanted.filter((entry) =>
    entry.path ? spawnSync("test", ["-x", entry.path]).status !== 0 : !has(entry.command),
  );
  if (missing.length === 0) return;
  const names = missing.map((entry) => entry.package);
  if (process.getuid?.() !== 0) throw new Error(`missing ${names.join(", ")}: sudo apt-get install ${names.join(" ")}`);
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  process.stdout.write(`installing ${names.join(", ")} with apt-get\n`);
  spawnSync("apt-get", ["update", "-qq"], { stdio: "inherit", env });
  const install = spawnSync(
    "apt-get",
    ["install", "-y", "-qq", "-o", "DPkg::Lock::Timeout=600", "--no-install-recommends", ...names],
    {
      stdio: "inherit",
      env,
    },
  );
  if (install.status !== 0) throw new Error(`apt-get install ${names.join(" ")} failed`);
}

export interface Measured {
  ms: number;
  /** Peak resident set size in MiB (GNU time's %M). */
  peakRssMb: number;
  status: number;
  stdout: string;
}

/** Runs a command under /usr/bin/time, without a shell, and returns wall time and peak RSS. */
export function measure(command: string, args: string[]): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn("/usr/bin/time", ["-f", "__peak_kb=%M", command, ...args], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on("error", reject);
    child.on("close", (status) => {
      const peak = /__peak_kb=(\d+)/.exec(stderr);
      resolve({
        ms: performance.now() - started,
        peakRssMb: peak ? Number(peak[1]) / 1024 : Number.NaN,
        status: status ?? -1,
        stdout,
      });
    });
  });
}

/** Runs `work` over `items` with `parallelism` lanes, like a worker pool. */
export async function pool<T>(
  items: T[],
  parallelism: number,
  work: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      await work(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: parallelism }, lane));
}

/** The photo job's encoder settings, as vipsthumbnail's output options. */
const VIPS_JPEG = "Q=82,interlace,strip";
const VIPS_WEBP = "Q=80,effort=2,strip";
const SQUARE = ["--size", "320x320", "--smartcrop", "centre"];
const BOUNDED = ["--size", "1600x1600>"];

/** Symlinks to `files` named 0000.jpg, 0001.jpg… in `dir`: vipsthumbnail names its outputs after its inputs. */
export function stage(files: string[], dir: string): string[] {
  fs.mkdirSync(dir, { recursive: true });
  return files.map((file, index) => {
    const link = path.join(dir, `${String(index).padStart(4, "0")}.jpg`);
    fs.symlinkSync(file, link);
    return link;
  });
}

/**
 * The peer of the photo job's renditions: vipsthumbnail (Debian libvips-tools)
 * making the 320 px square and the 1600 px preview, each JPEG q82 progressive
 * and WebP q80 effort 2, metadata stripped, from `staged` (see stage()), with
 * `parallelism` lanes, each lane one process per step over its share of the
 * files (so process start-up costs it nothing).
 *   decodes 1: each original decoded once to its preview (vips format, in
 *              memory-backed storage), the four files encoded from that;
 *   decodes 4: each of the four files made from the original.
 */
export async function vipsRenditions(
  staged: string[],
  parallelism: number,
  out: string,
  decodes: 1 | 4,
): Promise<{ ms: number; peakRssMb: number }> {
  const memory = fs.existsSync("/dev/shm") ? "/dev/shm" : os.tmpdir();
  const lanes = inLanes(staged, parallelism);
  const steps = (batch: string[], laneOut: string, scratch: string): string[][] => {
    const sources =
      decodes === 1 ? batch.map((file) => path.join(scratch, `${path.basename(file, path.extname(file))}.v`)) : batch;
    return [
      ...(decodes === 1 ? [[...batch, ...BOUNDED, "-o", path.join(scratch, "%s.v")]] : []),
      [...sources, ...BOUNDED, "-o", path.join(laneOut, `%s-p.jpg[${VIPS_JPEG}]`)],
      [...sources, ...BOUNDED, "-o", path.join(laneOut, `%s-p.webp[${VIPS_WEBP}]`)],
      [...sources, ...SQUARE, "-o", path.join(laneOut, `%s-t.jpg[${VIPS_JPEG}]`)],
      [...sources, ...SQUARE, "-o", path.join(laneOut, `%s-t.webp[${VIPS_WEBP}]`)],
    ];
  };
  fs.rmSync(out, { recursive: true, force: true });
  let peak = 0;
  const started = performance.now();
  await pool(lanes, parallelism, async (batch, lane) => {
    if (batch.length === 0) return;
    const laneOut = path.join(out, String(lane));
    fs.mkdirSync(laneOut, { recursive: true });
    const scratch = fs.mkdtempSync(path.join(memory, "dams-bench-vips-"));
    try {
      for (const args of steps(batch, laneOut, scratch)) {
        const run = await measure("vipsthumbnail", args);
        if (run.status !== 0) throw new Error(`vipsthumbnail … ${args.slice(-3).join(" ")} failed`);
        peak = Math.max(peak, run.peakRssMb);
      }
    } finally {
      fs.rmSync(scratch, { recursive: true, force: true });
    }
  });
  return { ms: performance.now() - started, peakRssMb: peak };
}

/** `items` dealt round-robin into `lanes` shares (the first item to lane 0, the second to lane 1, …). */
export function inLanes<T>(items: T[], lanes: number): T[][] {
  return Array.from({ length: lanes }, (_, lane) => items.filter((_, index) => index % lanes === lane));
}

/**
 * The preset benches' hand-made baseline: each share of files made into 1600 px previews (q82, sRGB, metadata
 * stripped) in `out` by one vipsthumbnail, then copied into `dest` by one cp, the shares side by side.
 * Returns the wall-clock milliseconds.
 */
export async function vipsPreviewsCopied(shares: string[][], out: string, dest: string): Promise<number> {
  fs.mkdirSync(out, { recursive: true });
  fs.mkdirSync(dest, { recursive: true });
  const started = performance.now();
  await Promise.all(
    shares.map(async (share) => {
      if (share.length === 0) return;
      const thumb = await measure("vipsthumbnail", [
        ...share,
        "--size",
        "1600x1600>",
        "--export-profile",
        "srgb",
        "-o",
        `${out}/%s.jpg[Q=82,strip]`,
      ]);
      if (thumb.status !== 0) throw new Error("vipsthumbnail failed");
      const copied = await measure("cp", [...share.map((file) => path.join(out, path.basename(file))), dest]);
      if (copied.status !== 0) throw new Error("cp failed");
    }),
  );
  return performance.now() - started;
}

const corpus = path.resolve(import.meta.dirname, "../../shared/corpus/exif-samples/jpg");

/**
 * `count` camera-like JPEGs of `width`×`height` (q90) in `dir`, named 0000.jpg…,
 * made from the corpus's readable JPEGs (cropped to size, brightness varied so
 * no two are alike).
 */
export async function benchPhotos(dir: string, count: number, width: number, height: number): Promise<string[]> {
  fs.mkdirSync(dir, { recursive: true });
  const sources = fs
    .readdirSync(corpus, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.jpe?g$/i.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
  const usable: string[] = [];
  for (const source of sources) {
    if (usable.length >= 40) break;
    try {
      // Decoded whole, as the photos below are: a sample whose header reads but whose data is corrupt is left out.
      await sharp(source).rotate().resize(64).toBuffer();
      usable.push(source);
    } catch {
      // a deliberately broken sample
    }
  }
  const files: string[] = [];
  for (let index = 0; index < count; index++) {
    const file = path.join(dir, `${String(index).padStart(4, "0")}.jpg`);
    await sharp(usable[index % usable.length]!, { failOn: "none" })
      .rotate()
      .resize(width, height, { fit: "cover" })
      .modulate({ brightness: 0.9 + (index % 20) / 100 })
      .jpeg({ quality: 90 })
      .toFile(file);
    files.push(file);
  }
  return files;
}
