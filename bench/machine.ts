import fs from "node:fs";
import os from "node:os";

/**
 * What every benchmark prints next to its ratio: how loaded the machine was
 * while it ran (the 1-minute load average, sampled every 2 s), and the CPU
 * time of a server process read from /proc, which is steadier than wall-clock
 * rates on a shared machine.
 */

export interface LoadSummary {
  min: number;
  max: number;
  mean: number;
}

/** Samples the 1-minute load average until stopped; `summary()` may be read at any time. */
export class LoadSampler {
  private readonly samples: number[] = [os.loadavg()[0]!];
  private readonly timer: NodeJS.Timeout;

  constructor(intervalMs = 2000) {
    this.timer = setInterval(() => this.samples.push(os.loadavg()[0]!), intervalMs);
    this.timer.unref();
  }

  summary(): LoadSummary {
    const samples = [...this.samples, os.loadavg()[0]!];
    return {
      min: Math.min(...samples),
      max: Math.max(...samples),
      mean: samples.reduce((sum, value) => sum + value, 0) / samples.length,
    };
  }

  /** "load 3.1 (2.4–4.0) on 2 cores": the mean of the samples, their range, the core count. */
  describe(): string {
    const { min, max, mean } = this.summary();
    return `load ${mean.toFixed(1)} (${min.toFixed(1)}–${max.toFixed(1)}) on ${os.availableParallelism()} cores`;
  }

  stop(): string {
    clearInterval(this.timer);
    return this.describe();
  }
}

/** The load average right now, as `describe()` words it, for a line printed mid-run. */
export function loadNow(): string {
  const [one, five] = os.loadavg();
  return `load ${one!.toFixed(1)} (1 min), ${five!.toFixed(1)} (5 min) on ${os.availableParallelism()} cores`;
}

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** User + system CPU seconds a process has used so far (its own threads; children it waited for are apart). */
export function processCpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  // Fields after the command name (which may hold spaces) start at state, field 3; utime and stime are 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/** User + system CPU seconds of a process's waited-for children (cutime, cstime). */
export function childrenCpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[13]) + Number(fields[14])) / TICKS_PER_SECOND;
}

/** Median of a non-empty list. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The spread of a list as min–max around its median, e.g. "1.02 (0.98–1.07)". */
export function spread(values: readonly number[], digits = 2): string {
  return `${median(values).toFixed(digits)} (${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)})`;
}
