import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { renderThumbnail } from "../server/src/media/images.js";
import { ensureDebianPackages, measure, median, pool } from "./media-tools.js";

/**
 * Square 320 px JPEG thumbnails of the corpus JPEGs, the same files and the
 * same parallelism (2 lanes, the machine's cores) for each contender:
 *   dams       renderThumbnail (sharp/libvips, in one worker process)
 *   vips       vipsthumbnail (Debian libvips-tools), one process per lane
 *              given its share of the files, so process start-up is not counted against it
 *   magick     ImageMagick convert -thumbnail, one process per file
 * Then the whole dams rendition set (320 square + 1600 preview, WebP + JPEG)
 * against vipsthumbnail making the same four files.
 * Targets: dams ≥ 0.9 × vipsthumbnail's throughput, ≥ 5 × ImageMagick's.
 *
 *   npm run bench:thumbnails -w bench        (BENCH_ROUNDS=3 for more rounds)
 */
const root = path.resolve(import.meta.dirname, "..");
const corpus = path.resolve(root, "../shared/corpus/exif-samples/jpg");
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const parallelism = Number(process.env.BENCH_PARALLELISM ?? Math.max(1, os.availableParallelism()));
const magick = "/usr/bin/convert"; // not /usr/local/bin/convert, which may be a stand-in

async function main(): Promise<void> {
  ensureDebianPackages([
    { command: "vipsthumbnail", package: "libvips-tools" },
    { command: "convert", path: magick, package: "imagemagick" },
  ]);
  const candidates = fs
    .readdirSync(corpus, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.jpe?g$/i.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
  // Only files every contender can read: the benchmark measures speed, not error paths.
  const files: string[] = [];
  const probeOut = path.join(os.tmpdir(), `dams-bench-probe-${process.pid}.jpg`);
  for (const file of candidates) {
    try {
      await renderThumbnail(file, probeOut);
      files.push(file);
    } catch {
      // a deliberately broken sample
    }
  }
  fs.rmSync(probeOut, { force: true });
  const megabytes = files.reduce((sum, file) => sum + fs.statSync(file).size, 0) / 1024 / 1024;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "dams-bench-thumbs-"));
  const listFile = path.join(work, "files.json");
  fs.writeFileSync(listFile, JSON.stringify(files));
  const fresh = (name: string) => {
    const dir = path.join(work, name);
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    return dir;
  };

  const dams = async (mode: "thumbnail" | "derivatives") => {
    const run = await measure(process.execPath, [
      "--import",
      "tsx",
      path.join(import.meta.dirname, "thumbnail-worker.ts"),
      mode,
      String(parallelism),
      fresh(`dams-${mode}`),
      listFile,
    ]);
    const result = JSON.parse(run.stdout.trim().split("\n").at(-1) ?? "{}") as { ms: number; failed: number };
    if (result.failed > 0) throw new Error(`dams failed on ${result.failed} files`);
    return { ms: result.ms, peakRssMb: run.peakRssMb };
  };
  const perFile = async (
    commands: (file: string, index: number, out: string) => [string, string[]][],
    name: string,
  ) => {
    const out = fresh(name);
    let peak = 0;
    const started = performance.now();
    await pool(files, parallelism, async (file, index) => {
      for (const [command, args] of commands(file, index, out)) {
        const run = await measure(command, args);
        if (run.status !== 0) throw new Error(`${command} failed on ${file}`);
        peak = Math.max(peak, run.peakRssMb);
      }
    });
    return { ms: performance.now() - started, peakRssMb: peak };
  };
  // vipsthumbnail takes many files per process: one process per lane, so start-up costs it nothing.
  const lanes = Array.from({ length: parallelism }, (_, lane) =>
    files.filter((_, index) => index % parallelism === lane),
  );
  const batched = async (commands: (batch: string[], out: string) => [string, string[]][], name: string) => {
    const out = fresh(name);
    let peak = 0;
    const started = performance.now();
    await pool(lanes, parallelism, async (batch, lane) => {
      const laneOut = path.join(out, String(lane));
      fs.mkdirSync(laneOut);
      for (const [command, args] of commands(batch, laneOut)) {
        const run = await measure(command, args);
        if (run.status !== 0) throw new Error(`${command} failed`);
        peak = Math.max(peak, run.peakRssMb);
      }
    });
    return { ms: performance.now() - started, peakRssMb: peak };
  };
  const square = ["--size", "320x320", "--smartcrop", "centre"];
  const bounded = ["--size", "1600x1600>"];
  const vipsThumbnail = (batch: string[], out: string): [string, string[]][] => [
    ["vipsthumbnail", [...batch, ...square, "-o", path.join(out, "%s.jpg[Q=82]")]],
  ];
  const vipsDerivatives = (batch: string[], out: string): [string, string[]][] => [
    ["vipsthumbnail", [...batch, ...square, "-o", path.join(out, "%s-t.jpg[Q=82]")]],
    ["vipsthumbnail", [...batch, ...square, "-o", path.join(out, "%s-t.webp[Q=80]")]],
    ["vipsthumbnail", [...batch, ...bounded, "-o", path.join(out, "%s-p.jpg[Q=82]")]],
    ["vipsthumbnail", [...batch, ...bounded, "-o", path.join(out, "%s-p.webp[Q=80]")]],
  ];
  const magickThumbnail = (file: string, index: number, out: string): [string, string[]][] => [
    [
      magick,
      [
        file,
        "-auto-orient",
        "-thumbnail",
        "320x320^",
        "-gravity",
        "center",
        "-extent",
        "320x320",
        "-quality",
        "82",
        path.join(out, `${index}.jpg`),
      ],
    ],
  ];

  // Warm the page cache and the tools once, then alternate so drift in the machine's load hits all alike.
  await dams("thumbnail");
  await batched(vipsThumbnail, "vips");
  const results = {
    dams: [] as number[],
    vips: [] as number[],
    magick: [] as number[],
    damsAll: [] as number[],
    vipsAll: [] as number[],
  };
  const peaks = { dams: 0, vips: 0, magick: 0, damsAll: 0, vipsAll: 0 };
  for (let round = 0; round < rounds; round++) {
    for (const [key, run] of [
      ["dams", () => dams("thumbnail")],
      ["vips", () => batched(vipsThumbnail, "vips")],
      ["damsAll", () => dams("derivatives")],
      ["vipsAll", () => batched(vipsDerivatives, "vips-all")],
      ...(round === 0 ? [["magick", () => perFile(magickThumbnail, "magick")] as const] : []),
    ] as const) {
      const measured = await run();
      results[key].push(measured.ms);
      peaks[key] = Math.max(peaks[key], measured.peakRssMb);
    }
  }
  fs.rmSync(work, { recursive: true, force: true });

  const rate = (ms: number[]) => files.length / (median(ms) / 1000);
  const line = (label: string, key: keyof typeof results) =>
    `  ${label.padEnd(44)} ${median(results[key]).toFixed(0).padStart(6)} ms  ${rate(results[key]).toFixed(1).padStart(6)} images/s  peak RSS ${peaks[key].toFixed(0)} MiB per worker`;
  const versusVips = median(results.vips) / median(results.dams);
  const versusMagick = median(results.magick) / median(results.dams);
  const allVersusVips = median(results.vipsAll) / median(results.damsAll);
  process.stdout.write(
    [
      `${files.length} corpus JPEGs (${megabytes.toFixed(1)} MB), ${parallelism} in parallel, median of ${rounds} rounds (ImageMagick: 1 round)`,
      line("dams renderThumbnail 320 square JPEG", "dams"),
      line("vipsthumbnail 320 square JPEG (batched)", "vips"),
      line("ImageMagick convert -thumbnail 320 (per file)", "magick"),
      line("dams renderImageDerivatives (4 files)", "damsAll"),
      line("vipsthumbnail, the same 4 files", "vipsAll"),
      `  ratio dams / vipsthumbnail (throughput) = ${versusVips.toFixed(2)} (target >= 0.9: ${versusVips >= 0.9 ? "met" : "NOT met"})`,
      `  ratio dams / ImageMagick (throughput)   = ${versusMagick.toFixed(1)} (target >= 5: ${versusMagick >= 5 ? "met" : "NOT met"})`,
      `  ratio dams / vipsthumbnail, full rendition set = ${allVersusVips.toFixed(2)}`,
      "",
    ].join("\n"),
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
