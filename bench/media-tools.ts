import { spawn, spawnSync } from "node:child_process";

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
  const install = spawnSync("apt-get", ["install", "-y", "-qq", "--no-install-recommends", ...names], {
    stdio: "inherit",
    env,
  });
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

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};
