import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { FFMPEG_PREAMBLE } from "../server/src/media/ffmpeg-args.js";
import { RENDER_FONT, renderEditArgs, SystemVideoRenderTools } from "../server/src/media/video-render.js";
import { edlSchema, sourceKey } from "../server/src/modules/video-edit/edl.schema.js";
import { compileEdl, ENCODINGS, type RenderSource } from "../server/src/modules/video-edit/render-graph.js";
import { type LocalSource, probedSource, renderEdlFile } from "../server/src/modules/video-edit/render-runner.js";
import { decided, describeRatios, formatRuns, type Run, shell, shellQuote, timed, verdict } from "./cpu-rounds.js";
import { LoadSampler, median } from "./machine.js";

/**
 * The video editor's render of a fixed 3-clip edit (1 s crossfade, then a
 * cut; 720p, no loudness pass) through dams — probe, compile the EDL into one
 * filter graph, ffmpeg with the allow-lists, prlimit, timeout and progress
 * parsing (renderEdlFile, what the `video-edit.render` job runs) — against
 * the same edit run from a shell, in CPU seconds (this process's and its
 * children's, from /proc; on a shared machine wall-clock time swings with the
 * others' load), rounds alternated (the order rotates), in this one process:
 *
 * - "same": the ffmpeg command dams runs — the compiled graph and the same
 *   encoder options — typed into a shell. Like for like: the ratio is what
 *   dams adds around ffmpeg. Target (issue 19): at most 1.05.
 * - "hand": the edit written by hand with the fewest filters (printed for the
 *   record: the compiled graph's extra steps are no-ops at this size and rate).
 *
 * Rounds go on (BENCH_MIN_ROUNDS 5 to BENCH_MAX_ROUNDS 10) until the 95 %
 * interval of dams/same is narrower than the 5 % margin or wholly on one
 * side of the target.
 *
 *   npm run bench:video-render -w bench   (BENCH_SIZE, default 1280x720; BENCH_SECONDS per clip, default 8)
 */
const size = process.env.BENCH_SIZE ?? "1280x720";
const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const minRounds = Number(process.env.BENCH_MIN_ROUNDS ?? 5);
const maxRounds = Number(process.env.BENCH_MAX_ROUNDS ?? 10);
const TARGET = 1.05;

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

    // "same": the command renderEdlFile runs, from the sources probed once here.
    const sources = new Map<string, RenderSource>();
    for (const local of locals)
      sources.set(sourceKey(local.ref), probedSource(local.path, await media.probe(local.path)));
    const plan = compileEdl(edl, sources, { font: RENDER_FONT });
    const graphFile = path.join(work, "graph.txt");
    fs.writeFileSync(graphFile, plan.filterGraph);
    const sameOut = path.join(work, "same.mp4");
    const same = ["ffmpeg", ...renderEditArgs(plan, graphFile, sameOut)].map(shellQuote).join(" ");

    // "hand": cut at the inputs, one crossfade and a cut, the same encoder settings.
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
      `ffmpeg ${FFMPEG_PREAMBLE.join(" ")} ${inputs} -filter_complex '${graph}' -map '[v]' -map '[a]' ` +
      `-c:v libx264 -preset ${encoding.preset} -crf ${encoding.crf} -profile:v high -pix_fmt yuv420p -r 25 ` +
      `-c:a aac -b:a ${encoding.audioBitrate} -ac 2 -ar 48000 -movflags +faststart '${handOut}'`;

    const damsOut = path.join(work, "dams.mp4");
    let renders = 0;
    const variants = {
      dams: async () => {
        const renderDir = path.join(work, `render-${renders++}`);
        fs.mkdirSync(renderDir);
        await renderEdlFile(edl, locals, damsOut, {
          workDir: renderDir,
          media,
          font: RENDER_FONT,
          onProgress: () => {},
        });
        fs.rmSync(renderDir, { recursive: true, force: true });
      },
      same: () => shell(same),
      hand: () => shell(hand),
    };
    type Variant = keyof typeof variants;
    const order: Variant[] = ["dams", "same", "hand"];
    const runs: Record<Variant, Run[]> = { dams: [], same: [], hand: [] };
    const sameRatios: number[] = [];
    const handRatios: number[] = [];
    console.log(`video-render bench: 3 clips of ${size}, ${seconds} s each; an edit of 11 s; rounds alternated`);
    const sampler = new LoadSampler();
    for (const variant of order) await variants[variant](); // unmeasured: page cache, libraries, the JIT
    for (let round = 0; round < maxRounds; round++) {
      const measured: Partial<Record<Variant, Run>> = {};
      for (let step = 0; step < order.length; step++) {
        const variant = order[(round + step) % order.length]!;
        measured[variant] = await timed(variants[variant]);
      }
      for (const variant of order) runs[variant].push(measured[variant]!);
      sameRatios.push(measured.dams!.cpuSeconds / measured.same!.cpuSeconds);
      handRatios.push(measured.dams!.cpuSeconds / measured.hand!.cpuSeconds);
      console.log(
        `  round ${round + 1}: dams ${measured.dams!.cpuSeconds.toFixed(2)} s CPU, same ${measured.same!.cpuSeconds.toFixed(2)}, ` +
          `hand ${measured.hand!.cpuSeconds.toFixed(2)}; dams/same ${sameRatios.at(-1)!.toFixed(3)}, dams/hand ${handRatios.at(-1)!.toFixed(3)}`,
      );
      if (decided(sameRatios, TARGET, minRounds)) break;
    }
    const load = sampler.stop();
    const lengths = [damsOut, sameOut, handOut].map((file) => probeDuration(file).toFixed(3)).join(" / ");
    console.log(
      [
        `  dams (renderEdlFile), CPU/wall s: ${formatRuns(runs.dams)}`,
        `  same command from a shell:        ${formatRuns(runs.same)}`,
        `  hand-written graph from a shell:  ${formatRuns(runs.hand)}`,
        `  seconds of video, dams / same / hand: ${lengths}`,
        `  CPU ratio dams / same command: ${describeRatios(sameRatios, median)}; target <= ${TARGET}: ${verdict(sameRatios, TARGET)}`,
        `  CPU ratio dams / hand-written graph: ${describeRatios(handRatios, median)} (for the record)`,
        `  ${sameRatios.length} rounds; ${load}`,
        `  same: ${same}`,
        `  hand: ${hand}`,
      ].join("\n"),
    );
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

await main();
