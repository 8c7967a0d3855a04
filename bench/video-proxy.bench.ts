import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { loadConfig } from "../server/src/config.js";
import { FFMPEG_PREAMBLE, safeInput } from "../server/src/media/ffmpeg-args.js";
import { SystemMediaTools } from "../server/src/media/index.js";
import { probeMedia } from "../server/src/media/probe.js";
import { videoProxyArgs } from "../server/src/media/video.js";
import { decided, describeRatios, formatRuns, type Run, shell, shellQuote, timed, verdict } from "./cpu-rounds.js";
import { LoadSampler, median } from "./machine.js";

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
    if (decided(ratios, TARGET, minRounds)) break;
  }
  const load = sampler.stop();
  fs.rmSync(work, { recursive: true, force: true });

  process.stdout.write(
    [
      `video proxy of a ${seconds} s 1920x1080 30 fps H.264/AAC clip, ${ratios.length} rounds alternated; ${load}`,
      `  shell ffmpeg, CPU/wall s:   ${formatRuns(shellRuns)}`,
      `  dams transcode, CPU/wall s: ${formatRuns(damsRuns)} (ffprobe included)`,
      `  per-round CPU ratios: ${ratios.map((ratio) => ratio.toFixed(3)).join(", ")}`,
      `  CPU ratio dams / shell: ${describeRatios(ratios, median)}; target <= ${TARGET}: ${verdict(ratios, TARGET)}; ${load}`,
      `  the shell command: ${shellCommand}`,
      "",
    ].join("\n"),
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
