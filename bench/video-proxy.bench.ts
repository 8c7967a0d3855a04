import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { FFMPEG_PREAMBLE, safeInput } from "../server/src/media/ffmpeg-args.js";
import { probeMedia } from "../server/src/media/probe.js";
import { videoProxyArgs } from "../server/src/media/video.js";
import { median } from "./media-tools.js";

/**
 * The web proxy transcode through dams (probe, allow-list, prlimit, timeout,
 * progress parsing) against the identical ffmpeg command typed into a shell,
 * on a 1080p clip with sound made by ffmpeg. Rounds alternate. The ratio is of
 * CPU seconds (GNU time), because on a shared machine the same encode's
 * wall-clock time varies several-fold with the other load; the best
 * wall-clock rounds are compared too. Target: dams takes at most 1.05 × the
 * shell's time.
 *
 *   npm run bench:video -w bench     (BENCH_ROUNDS, BENCH_SECONDS for the clip length)
 */
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const seconds = Number(process.env.BENCH_SECONDS ?? 10);

function shellQuote(arg: string): string {
  return `'${arg.replaceAll("'", "'\\''")}'`;
}

interface Run {
  wallMs: number;
  /** user + system CPU seconds of the process and everything it waited for. */
  cpuSeconds: number;
}

function timed(command: string, args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn("/usr/bin/time", ["-f", "__cpu=%U+%S", command, ...args], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on("error", reject);
    child.on("close", (code) => {
      const cpu = /__cpu=([\d.]+)\+([\d.]+)/.exec(stderr);
      if (code !== 0 || !cpu) return reject(new Error(`${command} exited ${code}: ${stderr.slice(-500)}`));
      resolve({ wallMs: performance.now() - started, cpuSeconds: Number(cpu[1]) + Number(cpu[2]) });
    });
  });
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

  const worker = ["--import", "tsx", path.join(import.meta.dirname, "video-proxy-worker.ts")];
  const shell: Run[] = [];
  const dams: Run[] = [];
  const startup: Run[] = [];
  for (let round = 0; round < rounds; round++) {
    shell.push(await timed("sh", ["-c", `${shellCommand} > /dev/null`]));
    dams.push(await timed(process.execPath, [...worker, source, path.join(work, "dams.mp4")]));
    startup.push(await timed(process.execPath, worker));
  }
  fs.rmSync(work, { recursive: true, force: true });

  // Wall-clock time on a shared machine varies several-fold with the other load; CPU seconds hardly do.
  // The dams worker's CPU has Node's and tsx's start-up (measured each round without a transcode) taken out.
  const shellCpu = median(shell.map((run) => run.cpuSeconds));
  const damsCpu = median(dams.map((run) => run.cpuSeconds)) - median(startup.map((run) => run.cpuSeconds));
  const ratio = damsCpu / shellCpu;
  const wallRatio = Math.min(...dams.map((run) => run.wallMs)) / Math.min(...shell.map((run) => run.wallMs));
  const format = (runs: Run[]) =>
    runs.map((run) => `${run.cpuSeconds.toFixed(2)} cpu/${(run.wallMs / 1000).toFixed(2)} wall`).join(", ");
  process.stdout.write(
    [
      `video proxy of a ${seconds} s 1920x1080 30 fps H.264/AAC clip, ${rounds} rounds alternating, seconds`,
      `  shell ffmpeg:       ${format(shell)}`,
      `  dams transcode:     ${format(dams)} (worker process, ffprobe included)`,
      `  dams start-up only: ${format(startup)}`,
      `  ratio dams / shell, CPU seconds (medians, start-up removed) = ${ratio.toFixed(3)} (target <= 1.05: ${ratio <= 1.05 ? "met" : "NOT met"})`,
      `  ratio dams / shell, best wall-clock rounds (start-up included) = ${wallRatio.toFixed(3)}`,
      `  the shell command: ${shellCommand}`,
      "",
    ].join("\n"),
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
