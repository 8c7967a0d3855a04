import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { RENDER_FONT, SystemVideoRenderTools } from "../server/src/media/video-render.js";
import { edlSchema } from "../server/src/modules/video-edit/edl.schema.js";
import { ENCODINGS } from "../server/src/modules/video-edit/render-graph.js";
import { type LocalSource, renderEdlFile } from "../server/src/modules/video-edit/render-runner.js";
import { childrenCpuSeconds, loadNow } from "./machine.js";

/**
 * The video editor's render of a fixed 3-clip edit (1 s crossfade, then a
 * cut; 720p, no loudness pass) through dams — probe, compile the EDL into one
 * filter graph, ffmpeg with the allow-lists, prlimit, timeout and progress
 * parsing (renderEdlFile, what the `video-edit.render` job runs) — against the
 * same edit as an ffmpeg command written by hand and run from a shell, one run
 * each on the same machine. Measured in CPU seconds (this process's and its
 * children's, from /proc): on a shared machine wall-clock time swings with the
 * others' load. Target (issue 19): dams takes at most 1.05 × the shell's CPU.
 *
 *   npx tsx bench/video-render.bench.ts     (BENCH_SIZE, default 1280x720; BENCH_SECONDS per clip, default 8)
 */
const size = process.env.BENCH_SIZE ?? "1280x720";
const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const TARGET = 1.05;

const cpuNow = () => {
  const own = process.cpuUsage();
  return (own.user + own.system) / 1e6 + childrenCpuSeconds(process.pid);
};

async function timed(run: () => Promise<unknown>): Promise<{ wallSeconds: number; cpuSeconds: number }> {
  const cpu = cpuNow();
  const started = performance.now();
  await run();
  return { wallSeconds: (performance.now() - started) / 1000, cpuSeconds: cpuNow() - cpu };
}

function shell(command: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn("sh", ["-c", command], { stdio: ["ignore", "ignore", "pipe"] });
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

function probeDuration(file: string): number {
  return Number(execFileSync("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", file]));
}

function makeClip(file: string, source: string, tone: number): void {
  execFileSync("ffmpeg", [
    ...["-v", "error", "-y", "-f", "lavfi", "-i", `${source}=size=${size}:rate=25`],
    ...["-f", "lavfi", "-i", `sine=frequency=${tone}:duration=${seconds}`],
    ...[
      "-c:v",
      "libx264",
      "-preset",
      "veryfast",
      "-g",
      "25",
      "-pix_fmt",
      "yuv420p",
      "-c:a",
      "aac",
      "-t",
      String(seconds),
      file,
    ],
  ]);
}

async function main(): Promise<void> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "dams-bench-render-"));
  try {
    const clips = ["testsrc2", "smptehdbars", "mandelbrot"].map((source, index) => {
      const file = path.join(work, `clip-${index}.mp4`);
      makeClip(file, source, 440 + index * 110);
      return file;
    });
    const cuts = [
      { in: 1, out: 5 },
      { in: 0, out: 4 },
      { in: 2, out: 6 },
    ];
    const edl = edlSchema.parse({
      schema: "dams.edl",
      version: 1,
      title: "bench",
      output: { aspect: "16:9", preset: "720p", fps: 25 },
      audio: { normalize: false },
      clips: cuts.map((cut, index) => ({
        id: `c${index}`,
        kind: "video",
        source: { libraryId: "material", storyId: `s${index}` },
        ...cut,
        ...(index === 1 ? { transition: { type: "crossfade", duration: 1 } } : {}),
      })),
    });
    const locals: LocalSource[] = clips.map((file, index) => ({
      ref: { libraryId: "material", storyId: `s${index}` },
      type: "video",
      path: file,
    }));
    const media = new SystemVideoRenderTools({
      timeoutMs: 1_800_000,
      memoryBytes: 4 * 1024 ** 3,
      maxPixels: 268_402_689,
    });
    const encoding = ENCODINGS["720p"];

    // The same edit by hand: cut at the inputs, one crossfade and a cut, the same encoder settings.
    const [width, height] = size.split("x");
    const norm = (i: number) =>
      `[${i}:v]scale=${width}:${height},fps=25,format=yuv420p,settb=AVTB[v${i}];` +
      `[${i}:a]aformat=sample_fmts=fltp:sample_rates=48000:channel_layouts=stereo[a${i}]`;
    const graph = [
      norm(0),
      norm(1),
      norm(2),
      "[v0][v1]xfade=transition=fade:duration=1:offset=3[x1]",
      "[a0][a1]acrossfade=d=1[y1]",
      "[x1][y1][v2][a2]concat=n=2:v=1:a=1[v][a]",
    ].join(";");
    const handOut = path.join(work, "hand.mp4");
    const inputs = cuts.map((cut, index) => `-ss ${cut.in} -t ${cut.out - cut.in} -i '${clips[index]}'`).join(" ");
    const hand =
      `ffmpeg -v error -y ${inputs} -filter_complex '${graph}' -map '[v]' -map '[a]' ` +
      `-c:v libx264 -preset ${encoding.preset} -crf ${encoding.crf} -profile:v high -pix_fmt yuv420p -r 25 ` +
      `-c:a aac -b:a ${encoding.audioBitrate} -ac 2 -ar 48000 -movflags +faststart '${handOut}'`;

    const damsOut = path.join(work, "dams.mp4");
    const renderDir = path.join(work, "render");
    fs.mkdirSync(renderDir);
    console.log(`video-render bench: 3 clips of ${size}, ${seconds} s each; edit of 11 s; load before ${loadNow()}`);
    const dams = await timed(() =>
      renderEdlFile(edl, locals, damsOut, { workDir: renderDir, media, font: RENDER_FONT }),
    );
    const byHand = await timed(() => shell(hand));
    const ratio = dams.cpuSeconds / byHand.cpuSeconds;
    console.log(
      `dams:  ${dams.cpuSeconds.toFixed(2)} s CPU, ${dams.wallSeconds.toFixed(2)} s wall, ${probeDuration(damsOut).toFixed(3)} s of video`,
    );
    console.log(
      `shell: ${byHand.cpuSeconds.toFixed(2)} s CPU, ${byHand.wallSeconds.toFixed(2)} s wall, ${probeDuration(handOut).toFixed(3)} s of video`,
    );
    console.log(
      `ratio dams/shell CPU: ${ratio.toFixed(3)} (target ≤ ${TARGET}; one run each, load after ${loadNow()})`,
    );
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

await main();
