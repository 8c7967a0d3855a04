import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { loadConfig } from "../server/src/config.js";
import { FFMPEG_PREAMBLE, safeInput } from "../server/src/media/ffmpeg-args.js";
import { SystemMediaTools } from "../server/src/media/index.js";
import { probeMedia } from "../server/src/media/probe.js";
import { videoProxyArgs } from "../server/src/media/video.js";
import { childrenCpuSeconds, LoadSampler, median } from "./machine.js";

/**
 * The web proxy transcode through dams (probe, allow-list, prlimit, timeout,
 * progress parsing; SystemMediaTools.videoProxy, what the video job runs) against the
 * identical ffmpeg command typed into a shell, on a 1080p clip with sound made
 * by ffmpeg, alternated round by round in this one process. Measured in CPU
 * seconds (this process's own and its children's, from /proc), because on a
 * shared machine the same encode's wall-clock time varies several-fold with
 * the other load. Rounds go on (BENCH_MIN_ROUNDS 5 to BENCH_MAX_ROUNDS 15)
 * until the 95 % confidence interval of the mean per-round ratio is narrower
 * than the 5 % margin on either side, so the verdict is not the noise's; the
 * interval is printed. Target: dams takes at most 1.05 × the shell's CPU.
 *
 *   npm run bench:video -w bench     (BENCH_SECONDS for the clip length)
 */
const minRounds = Number(process.env.BENCH_MIN_ROUNDS ?? 5);
const maxRounds = Number(process.env.BENCH_MAX_ROUNDS ?? 15);
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const TARGET = 1.05;

function shellQuote(arg: string): string {
  return `'${arg.replaceAll("'", "'\\''")}'`;
}

interface Run {
  wallMs: number;
  /** user + system CPU seconds of this process and the children it waited for during the run. */
  cpuSeconds: number;
}

const cpuNow = () => {
  const own = process.cpuUsage();
  return (own.user + own.system) / 1e6 + childrenCpuSeconds(process.pid);
};

async function timed(run: () => Promise<unknown>): Promise<Run> {
  const cpu = cpuNow();
  const started = performance.now();
  await run();
  return { wallMs: performance.now() - started, cpuSeconds: cpuNow() - cpu };
}

function shell(command: string): Promise<void> {
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

function interval(values: number[]): { mean: number; half: number } {
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const variance = values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (values.length - 1);
  return { mean, half: t95(values.length - 1) * Math.sqrt(variance / values.length) };
}

async function main(): Promise<void> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "dams-bench-video-"));
  const source = path.join(work, "source.mp4");
  execFileSync("ffmpeg", [
    "-hide_banner",
    "-loglevel",
    "error",
    "-y",
    "-f",
    "lavfi",
    "-i",
    `testsrc2=size=1920x1080:rate=30:duration=${seconds}`,
    "-f",
    "lavfi",
    "-i",
    `sine=frequency=440:duration=${seconds}`,
    "-c:v",
    "libx264",
    "-preset",
    "ultrafast",
    "-crf",
    "18",
    "-pix_fmt",
    "yuv420p",
    "-c:a",
    "aac",
    "-shortest",
    source,
  ]);
  const probe = await probeMedia(source);
  const shellOut = path.join(work, "shell.mp4");
  const shellCommand = [
    "ffmpeg",
    ...FFMPEG_PREAMBLE,
    "-nostats",
    "-progress",
    "pipe:1",
    ...safeInput(source),
    ...videoProxyArgs(probe, shellOut),
  ]
    .map(shellQuote)
    .join(" ");

  const media = new SystemMediaTools(loadConfig({ DAMS_LOG_LEVEL: "silent" }).media);
  const transcode = () => media.videoProxy(source, path.join(work, "dams.mp4"), { onProgress: () => {} });
  const sampler = new LoadSampler();
  const shellRuns: Run[] = [];
  const damsRuns: Run[] = [];
  const ratios: number[] = [];
  // One of each first, unmeasured: page cache, ffmpeg's libraries, the JIT.
  await shell(shellCommand);
  await transcode();
  for (let round = 0; round < maxRounds; round++) {
    const shellRun = await timed(() => shell(shellCommand));
    const damsRun = await timed(transcode);
    shellRuns.push(shellRun);
    damsRuns.push(damsRun);
    ratios.push(damsRun.cpuSeconds / shellRun.cpuSeconds);
    if (ratios.length >= minRounds) {
      const { mean, half } = interval(ratios);
      // Decided: the whole interval on one side of the target, or narrower than the margin.
      if (mean + half <= TARGET || mean - half > TARGET || half < TARGET - 1) break;
    }
  }
  const load = sampler.stop();
  fs.rmSync(work, { recursive: true, force: true });

  const { mean, half } = interval(ratios);
  const verdict =
    mean + half <= TARGET ? "met" : mean - half > TARGET ? "NOT met" : "undecided (the interval spans the target)";
  const format = (runs: Run[]) =>
    runs.map((run) => `${run.cpuSeconds.toFixed(2)}/${(run.wallMs / 1000).toFixed(1)}`).join(", ");
  process.stdout.write(
    [
      `video proxy of a ${seconds} s 1920x1080 30 fps H.264/AAC clip, ${ratios.length} rounds alternated; ${load}`,
      `  shell ffmpeg, CPU/wall s:   ${format(shellRuns)}`,
      `  dams transcode, CPU/wall s: ${format(damsRuns)} (ffprobe included)`,
      `  per-round CPU ratios: ${ratios.map((ratio) => ratio.toFixed(3)).join(", ")}`,
      `  CPU ratio dams / shell: mean ${mean.toFixed(3)} ± ${half.toFixed(3)} (95 % interval ${(mean - half).toFixed(3)}–${(mean + half).toFixed(3)}, median ${median(ratios).toFixed(3)}); target <= ${TARGET}: ${verdict}; ${load}`,
      `  the shell command: ${shellCommand}`,
      "",
    ].join("\n"),
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
