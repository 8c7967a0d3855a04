import { spawn } from "node:child_process";
import { childrenCpuSeconds } from "./machine.js";

/**
 * What the benchmarks that compare dams with a command typed into a shell
 * share: CPU seconds of this process and the children it waited for (from
 * /proc; on a shared machine wall-clock time swings with the others' load),
 * the shell run, and the 95 % interval of per-round ratios that decides when
 * enough alternated rounds were run.
 */

export interface Run {
  wallMs: number;
  /** user + system CPU seconds of this process and the children it waited for during the run. */
  cpuSeconds: number;
}

export function cpuNow(): number {
  const own = process.cpuUsage();
  return (own.user + own.system) / 1e6 + childrenCpuSeconds(process.pid);
}

export async function timed(run: () => Promise<unknown>): Promise<Run> {
  const cpu = cpuNow();
  const started = performance.now();
  await run();
  return { wallMs: performance.now() - started, cpuSeconds: cpuNow() - cpu };
}

export function shellQuote(arg: string): string {
  return `'${arg.replaceAll("'", "'\\''")}'`;
}

/** Runs a command line with `sh -c`, its standard output thrown away. */
export function shell(command: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn("sh", ["-c", `${command} > /dev/null`], { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0 ? resolve() : reject(new Error(`shell exited ${code}: ${stderr.slice(-500)}`)),
    );
  });
}

/** Student's t for a two-sided 95 % interval, by degrees of freedom (≥ 30: 2.0). */
function t95(df: number): number {
  const table = [12.71, 4.3, 3.18, 2.78, 2.57, 2.45, 2.36, 2.31, 2.26, 2.23, 2.2, 2.18, 2.16, 2.14, 2.13];
  return table[df - 1] ?? (df < 30 ? 2.1 : 2.0);
}

/** The mean of `values` and the half-width of its 95 % confidence interval. */
export function interval(values: number[]): { mean: number; half: number } {
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const variance = values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (values.length - 1);
  return { mean, half: t95(values.length - 1) * Math.sqrt(variance / values.length) };
}

/** Whether the rounds so far decide "ratio ≤ target": the interval wholly on one side, or narrower than the margin. */
export function decided(ratios: number[], target: number, minRounds: number): boolean {
  if (ratios.length < minRounds) return false;
  const { mean, half } = interval(ratios);
  return mean + half <= target || mean - half > target || half < target - 1;
}

/** "met", "NOT met" or "undecided", for a ratio that should stay at or under `target`. */
export function verdict(ratios: number[], target: number): string {
  const { mean, half } = interval(ratios);
  return mean + half <= target ? "met" : mean - half > target ? "NOT met" : "undecided (the interval spans the target)";
}

/** "mean 1.012 ± 0.020 (95 % interval 0.992–1.032, median 1.010)". */
export function describeRatios(ratios: number[], median: (values: number[]) => number): string {
  const { mean, half } = interval(ratios);
  return `mean ${mean.toFixed(3)} ± ${half.toFixed(3)} (95 % interval ${(mean - half).toFixed(3)}–${(mean + half).toFixed(3)}, median ${median(ratios).toFixed(3)})`;
}

/** Each run as "CPU/wall" seconds. */
export function formatRuns(runs: Run[]): string {
  return runs.map((run) => `${run.cpuSeconds.toFixed(2)}/${(run.wallMs / 1000).toFixed(1)}`).join(", ");
}
