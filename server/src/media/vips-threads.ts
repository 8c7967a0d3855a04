import fs from "node:fs";
import os from "node:os";

/** The name libvips gives its worker threads (`/proc/<pid>/task/<tid>/comm`). */
const LIBVIPS_WORKER = "libvips worker";

/**
 * Lowers libvips' worker threads in this process by `nice` below the
 * process's own priority (as `nice -n` does for the tools it starts), at most
 * to 19.
 * sharp's pixel work runs in those threads, inside the dams process (the API's
 * when `dams serve` runs its own workers), so `nice` on a child process cannot
 * reach it. On Linux each thread has its own nice value (setpriority on a
 * thread id), and libvips keeps its workers for reuse, so lowering each one
 * once puts every later image operation behind the API's threads; a thread
 * libvips adds later is lowered at the next call. Threads already at that
 * priority or lower are left alone (raising a priority needs privileges).
 * Each thread's `stat` is read once (a thread id that ends is forgotten), so
 * a call costs one listing of `/proc/self/task`, tens of microseconds.
 * Elsewhere than Linux, or with `nice` 0, it does nothing.
 */
export function lowerLibvipsThreads(nice: number): void {
  if (nice <= 0 || process.platform !== "linux") return;
  const target = Math.min(19, os.getPriority() + nice);
  let tids: string[];
  try {
    tids = fs.readdirSync("/proc/self/task");
  } catch {
    return;
  }
  const present = new Set(tids);
  for (const tid of known.keys()) if (!present.has(tid)) known.delete(tid); // ended: its id may come back
  for (const tid of tids) {
    const priority = known.get(tid);
    if (priority === null || (priority !== undefined && priority >= target)) continue;
    try {
      // "<tid> (<comm>) <state> …": the nice value is the 17th field after the name.
      const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
      const close = stat.lastIndexOf(")");
      if (stat.slice(stat.indexOf("(") + 1, close) !== LIBVIPS_WORKER) {
        known.set(tid, null);
        continue;
      }
      const current = Number(stat.slice(close + 2).split(" ")[16]);
      if (current < target) os.setPriority(Number(tid), target);
      known.set(tid, Math.max(current, target));
    } catch {
      // the thread ended meanwhile
    }
  }
}

/** Threads looked at: a libvips worker's priority as set, null for another thread (read once). */
const known = new Map<string, number | null>();
