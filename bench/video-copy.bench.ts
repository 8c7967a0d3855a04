import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { FFMPEG_PREAMBLE } from "../server/src/media/ffmpeg-args.js";
import { probeArgs } from "../server/src/media/probe.js";
import { copyCutArgs, RENDER_FONT, SystemVideoRenderTools } from "../server/src/media/video-render.js";
import { edlSchema, sourceKey } from "../server/src/modules/video-edit/edl.schema.js";
import { compileEdl } from "../server/src/modules/video-edit/render-graph.js";
import { type LocalSource, probedSource, renderEdlFile } from "../server/src/modules/video-edit/render-runner.js";
import { decided, describeRatios, formatRuns, type Run, shell, shellQuote, timed, verdict } from "./cpu-rounds.js";
import { LoadSampler, median } from "./machine.js";

/**
 * The video editor's stream-copy trim (issue 19): an edit of one clip cut
 * from a 10-minute 1080p25 H.264/AAC film (≈ 10 Mbit/s, a keyframe every 2 s),
 * in at 60 s and out at 540 s, through dams — the probe that also reads the
 * keyframes at the in point, the copy decision, ffmpeg with the allow-lists,
 * prlimit and progress (renderEdlFile, what the `video-edit.render` job runs)
 * — against `ffmpeg -ss 60 -t 480 -i film.mp4 -map 0:v:0 -map 0:a:0 -c copy`
 * typed into a shell (with the same `-avoid_negative_ts make_zero` and
 * `-movflags +faststart`: a file a browser plays at once) — the issue's peer —
 * and against ffprobe (the keyframes at the in point) then the copy typed
 * into a shell: what dams must learn before it may copy (the codecs, size and
 * rotation, and that the in point is a keyframe) got by the tool — dams reads
 * these from an H.264 MP4's moov in process (media/mp4-facts.ts) and starts
 * ffprobe only for other files, so for this film that ratio says what reading
 * them in process saves. CPU seconds of this process and its children, rounds alternated
 * with the order rotating. Then the same edit
 * re-encoded by dams (the compiled graph, 1080p H.264 `fast` CRF 17 as the
 * "original" preset does), measured on its first BENCH_ENCODE_SECONDS (default
 * 20) of the cut and scaled to the cut's 480 s — encoding the repeated test
 * picture costs the same each second; a full re-encode takes tens of minutes
 * on a shared machine.
 *
 * Targets: dams/shell CPU ≤ 1.1 (both peers reported); the copy ≥ 20 × faster
 * (CPU) than re-encoding.
 * The film is made in the system's temporary directory (outside the repository)
 * from a 10 s testsrc2 piece joined 60 times without re-encoding, and removed.
 *
 *   npm run bench:video-copy -w bench
 */
const minRounds = Number(process.env.BENCH_MIN_ROUNDS ?? 5);
const maxRounds = Number(process.env.BENCH_MAX_ROUNDS ?? 12);
const encodeSeconds = Number(process.env.BENCH_ENCODE_SECONDS ?? 20);
const COPY_TARGET = 1.1;
const SPEED_TARGET = 20;
const FILM_SECONDS = 600;
const CUT = { in: 60, out: 540 };

function ffmpeg(args: string[]): void {
  execFileSync("ffmpeg", ["-hide_banner", "-nostdin", "-loglevel", "error", "-y", ...args]);
}

/** 10 minutes of 1080p25: a noisy 10 s piece (keyframes every 2 s) joined 60 times by stream copy, then a tone. */
function makeFilm(work: string): string {
  const piece = path.join(work, "piece.mp4");
  ffmpeg([
    ...["-f", "lavfi", "-i", "testsrc2=size=1920x1080:rate=25,noise=alls=8:allf=t", "-t", "10"],
    ...["-c:v", "libx264", "-preset", "ultrafast", "-b:v", "10M", "-maxrate", "10M", "-bufsize", "20M"],
    ...["-g", "50", "-pix_fmt", "yuv420p", piece],
  ]);
  const list = path.join(work, "pieces.txt");
  fs.writeFileSync(list, `file '${piece}'\n`.repeat(FILM_SECONDS / 10));
  const picture = path.join(work, "picture.mp4");
  ffmpeg(["-f", "concat", "-safe", "0", "-i", list, "-c", "copy", picture]);
  const film = path.join(work, "film.mp4");
  ffmpeg([
    ...["-i", picture, "-f", "lavfi", "-i", `sine=frequency=440:sample_rate=48000:duration=${FILM_SECONDS}`],
    ...["-map", "0:v", "-map", "1:a", "-c:v", "copy", "-c:a", "aac", "-b:a", "128k", "-movflags", "+faststart", film],
  ]);
  fs.rmSync(picture);
  return film;
}

function probe(file: string): { duration: number; videoCodec: string } {
  const out = execFileSync("ffprobe", [
    ...["-v", "error", "-select_streams", "v:0", "-show_entries", "format=duration:stream=codec_name"],
    ...["-of", "json", file],
  ]).toString();
  const parsed = JSON.parse(out) as { format: { duration: string }; streams: { codec_name: string }[] };
  return { duration: Number(parsed.format.duration), videoCodec: parsed.streams[0]!.codec_name };
}

async function main(): Promise<void> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "dams-bench-copy-"));
  try {
    const film = makeFilm(work);
    const filmBytes = fs.statSync(film).size;
    const media = new SystemVideoRenderTools({
      timeoutMs: 3_600_000,
      memoryBytes: 4 * 1024 ** 3,
      maxPixels: 268_402_689,
    });
    const ref = { libraryId: "material", storyId: "film" };
    const edlOf = (cut: { in: number; out: number }) =>
      edlSchema.parse({
        schema: "dams.edl",
        version: 1,
        title: "bench",
        output: { aspect: "16:9", preset: "original" },
        audio: { normalize: false },
        clips: [{ id: "c", kind: "video", source: ref, ...cut }],
      });
    const edl = edlOf(CUT);
    const locals: LocalSource[] = [{ ref, type: "video", path: film }];

    const damsOut = path.join(work, "dams.mp4");
    const shellOut = path.join(work, "shell.mp4");
    const probedOut = path.join(work, "probed.mp4");
    const duration = CUT.out - CUT.in;
    const commandLine = (args: string[]) => args.map(shellQuote).join(" ");
    const shellCommand = commandLine([
      ...["ffmpeg", ...FFMPEG_PREAMBLE, "-ss", String(CUT.in), "-t", String(duration), "-i", film],
      ...["-map", "0:v:0", "-map", "0:a:0", "-c", "copy", "-avoid_negative_ts", "make_zero"],
      ...["-movflags", "+faststart", shellOut],
    ]);
    // What dams ran for this edit before it read MP4 facts in process (prlimit aside): the probe, then the copy.
    const probedCommand = [
      commandLine(["ffprobe", ...probeArgs(film, { keyframesNear: CUT.in })]),
      commandLine([
        "ffmpeg",
        ...copyCutArgs({ path: film, start: CUT.in, duration, audio: "copy", normalize: false }, probedOut),
      ]),
    ].join(" > /dev/null && ");
    let method = "";
    const variants = {
      dams: async () => {
        const renderDir = fs.mkdtempSync(path.join(work, "render-"));
        const result = await renderEdlFile(edl, locals, damsOut, { workDir: renderDir, media, font: RENDER_FONT });
        method = result.method;
        fs.rmSync(renderDir, { recursive: true, force: true });
      },
      shell: () => shell(shellCommand),
      probed: () => shell(probedCommand),
    };
    type Variant = keyof typeof variants;
    const order: Variant[] = ["dams", "shell", "probed"];
    console.log(
      `video-copy bench: a ${FILM_SECONDS} s 1920x1080 25 fps film of ${(filmBytes / 1e6).toFixed(0)} MB, ` +
        `cut ${CUT.in}–${CUT.out} s; rounds alternated, the order rotating`,
    );
    const sampler = new LoadSampler();
    for (const variant of order) await variants[variant](); // unmeasured: the page cache, ffmpeg's libraries, the JIT
    if (method !== "copy") throw new Error(`dams did not copy the cut (${method})`);
    const runs: Record<Variant, Run[]> = { dams: [], shell: [], probed: [] };
    const ratios: Record<"shell" | "probed", number[]> = { shell: [], probed: [] };
    for (let round = 0; round < maxRounds; round++) {
      for (let step = 0; step < order.length; step++) {
        const variant = order[(round + step) % order.length]!;
        runs[variant].push(await timed(variants[variant]));
      }
      for (const peer of ["shell", "probed"] as const)
        ratios[peer].push(runs.dams.at(-1)!.cpuSeconds / runs[peer].at(-1)!.cpuSeconds);
      if (decided(ratios.shell, COPY_TARGET, minRounds) && decided(ratios.probed, COPY_TARGET, minRounds)) break;
    }

    // The same edit re-encoded (what dams does when the in point is off a keyframe), on its first seconds.
    const sources = new Map([[sourceKey(ref), probedSource(film, await media.probe(film))]]);
    const part = compileEdl(edlOf({ in: CUT.in, out: CUT.in + encodeSeconds }), sources, { font: RENDER_FONT });
    const encodeDir = fs.mkdtempSync(path.join(work, "encode-"));
    const encodeOut = path.join(encodeDir, "encode.mp4");
    const encode = await timed(() => media.renderEdit(part, encodeOut, { workDir: encodeDir }));
    const load = sampler.stop();

    const copyCpu = median(runs.dams.map((run) => run.cpuSeconds));
    const encodeCpu = (encode.cpuSeconds * duration) / encodeSeconds;
    const speed = encodeCpu / copyCpu;
    const [damsFile, shellFile, encodeFile] = [damsOut, shellOut, encodeOut].map(probe);
    const perRound = (values: number[]) => values.map((ratio) => ratio.toFixed(3)).join(", ");
    const probeCpu = median(runs.probed.map((run) => run.cpuSeconds)) - median(runs.shell.map((run) => run.cpuSeconds));
    console.log(
      [
        `  dams stream copy (renderEdlFile), CPU/wall s: ${formatRuns(runs.dams)}`,
        `  ffmpeg -c copy from a shell, CPU/wall s:     ${formatRuns(runs.shell)}`,
        `  dams' ffprobe && ffmpeg from a shell, CPU/wall s: ${formatRuns(runs.probed)}`,
        `  outputs: dams ${damsFile!.duration.toFixed(2)} s ${damsFile!.videoCodec} (${(fs.statSync(damsOut).size / 1e6).toFixed(0)} MB), ` +
          `shell ${shellFile!.duration.toFixed(2)} s (${(fs.statSync(shellOut).size / 1e6).toFixed(0)} MB)`,
        `  per-round CPU ratios dams / ffmpeg -c copy: ${perRound(ratios.shell)}`,
        `  per-round CPU ratios dams / the same two commands: ${perRound(ratios.probed)}`,
        `  CPU ratio dams copy / ffmpeg -c copy (the issue's peer): ${describeRatios(ratios.shell, median)}; ` +
          `target <= ${COPY_TARGET}: ${verdict(ratios.shell, COPY_TARGET)}`,
        `  CPU ratio dams copy / ffprobe + ffmpeg from a shell: ${describeRatios(ratios.probed, median)}; ` +
          `target <= ${COPY_TARGET}: ${verdict(ratios.probed, COPY_TARGET)}`,
        `  the probe from a shell (median probed − median bare): ${probeCpu.toFixed(3)} s CPU`,
        `  re-encoding by dams: ${encode.cpuSeconds.toFixed(2)} s CPU (${(encode.wallMs / 1000).toFixed(1)} s wall) for ` +
          `${encodeFile!.duration.toFixed(2)} s of the cut → ${encodeCpu.toFixed(1)} s CPU for its ${duration} s`,
        `  copy vs re-encode: ${speed.toFixed(0)}× less CPU (median copy ${copyCpu.toFixed(2)} s); target >= ${SPEED_TARGET}×: ${speed >= SPEED_TARGET ? "met" : "NOT met"}`,
        `  ${ratios.shell.length} rounds; ${load}`,
        `  shell: ${shellCommand}`,
        `  same:  ${probedCommand}`,
      ].join("\n"),
    );
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

await main();
