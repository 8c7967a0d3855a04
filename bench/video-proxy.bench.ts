import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { FFMPEG_PREAMBLE, safeInput } from "../server/src/media/ffmpeg-args.js";
import { probeMedia } from "../server/src/media/probe.js";
import { transcodeVideoProxy, videoProxyArgs } from "../server/src/media/video.js";
import { median } from "./media-tools.js";

/**
 * The web proxy transcode through dams (probe, allow-list, prlimit, timeout,
 * progress parsing) against the identical ffmpeg command typed into a shell,
 * on a 1080p clip with sound made by ffmpeg. Rounds alternate. Target: dams
 * takes at most 1.05 × the shell's time.
 *
 *   npm run bench:video -w bench     (BENCH_ROUNDS, BENCH_SECONDS for the clip length)
 */
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const seconds = Number(process.env.BENCH_SECONDS ?? 10);

function shellQuote(arg: string): string {
  return `'${arg.replaceAll("'", "'\\''")}'`;
}

function runShell(command: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn("sh", ["-c", command], { stdio: "ignore" });
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0 ? resolve(performance.now() - started) : reject(new Error(`shell ffmpeg exited ${code}`)),
    );
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

  const dams: number[] = [];
  const shell: number[] = [];
  for (let round = 0; round < rounds; round++) {
    shell.push(await runShell(`${shellCommand} > /dev/null`));
    const started = performance.now();
    await transcodeVideoProxy(source, path.join(work, "dams.mp4"), { onProgress: () => {} });
    dams.push(performance.now() - started);
  }
  fs.rmSync(work, { recursive: true, force: true });

  const ratio = median(dams) / median(shell);
  const format = (values: number[]) => values.map((value) => (value / 1000).toFixed(2)).join(", ");
  process.stdout.write(
    [
      `video proxy of a ${seconds} s 1920x1080 30 fps H.264/AAC clip, ${rounds} rounds alternating`,
      `  shell ffmpeg         s: ${format(shell)} (median ${(median(shell) / 1000).toFixed(2)})`,
      `  dams transcode       s: ${format(dams)} (median ${(median(dams) / 1000).toFixed(2)}), including its ffprobe`,
      `  ratio dams / shell = ${ratio.toFixed(3)} (target <= 1.05: ${ratio <= 1.05 ? "met" : "NOT met"})`,
      `  the shell command: ${shellCommand}`,
      "",
    ].join("\n"),
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
