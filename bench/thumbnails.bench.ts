import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { loadConfig } from "../server/src/config.js";
import { SystemMediaTools } from "../server/src/media/index.js";
import { LoadSampler, median } from "./machine.js";
import { ensureDebianPackages, measure, pool, stage, vipsRenditions } from "./media-tools.js";

/**
 * A photo's renditions as the photo job makes them (MediaTools.imageDerivatives:
 * a 320 px square thumbnail and a 1600 px preview, each JPEG q82 progressive
 * and WebP q80 effort 2, metadata stripped), on two sets of files: the corpus
 * JPEGs (about 1.3 MP on average) and camera-size photos (24 MP, 6000×4000,
 * made here from corpus pictures with grain, so they compress like camera
 * files). The same files and the same parallelism (lanes = the machine's
 * cores) for each contender, alternated round by round:
 *   dams          SystemMediaTools.imageDerivatives in one worker process (thumbnail-worker.ts)
 *   vips 1 decode vipsthumbnail (Debian libvips-tools) decoding each original
 *                 once to its preview (vips format, in memory-backed storage),
 *                 then encoding the four files from it with the same settings;
 *                 one process per lane and step, so start-up costs it nothing
 *   vips 4 decode vipsthumbnail making each of the four files from the original
 *   magick        ImageMagick convert, one process per file, one decode, the four files
 * and, for the record, the photo job's whole media step (renditions, metadata,
 * perceptual hash). Targets: dams ≥ 0.9 × the one-decode vips peer's
 * throughput, ≥ 5 × ImageMagick's.
 *
 *   npm run bench:thumbnails -w bench      (BENCH_ROUNDS=3, BENCH_CAMERA_FILES=8)
 */
const root = path.resolve(import.meta.dirname, "..");
const corpus = path.resolve(root, "../shared/corpus/exif-samples/jpg");
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const cameraFiles = Number(process.env.BENCH_CAMERA_FILES ?? 8);
const parallelism = Number(process.env.BENCH_PARALLELISM ?? Math.max(1, os.availableParallelism()));
const magick = "/usr/bin/convert"; // not /usr/local/bin/convert, which may be a stand-in

/** Corpus JPEGs that the dams function renders (the deliberately broken samples left out). */
async function corpusFiles(work: string): Promise<string[]> {
  const candidates = fs
    .readdirSync(corpus, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.jpe?g$/i.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
  const media = new SystemMediaTools(loadConfig({ DAMS_LOG_LEVEL: "silent" }).media);
  const files: string[] = [];
  for (const file of candidates) {
    try {
      await media.imageDerivatives(file, path.join(work, "probe"));
      files.push(file);
    } catch {
      // a deliberately broken sample
    }
  }
  return files;
}

/** 24 MP JPEGs: corpus pictures enlarged to 6000×4000 with grain, q94 4:2:0, camera EXIF. */
async function cameraPhotos(sources: string[], dir: string, count: number): Promise<string[]> {
  fs.mkdirSync(dir, { recursive: true });
  const width = 6000;
  const height = 4000;
  const files: string[] = [];
  for (let index = 0; index < count; index++) {
    const source = sources[(index * 7) % sources.length]!;
    const { data } = await sharp(source)
      .rotate()
      .resize(width, height, { fit: "cover" })
      .removeAlpha()
      .toColourspace("srgb")
      .raw()
      .toBuffer({ resolveWithObject: true });
    let seed = index + 1;
    for (let i = 0; i < data.length; i++) {
      seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff;
      data[i] = Math.max(0, Math.min(255, data[i]! + ((seed >> 16) % 21) - 10));
    }
    const file = path.join(dir, `camera-${index}.jpg`);
    await sharp(data, { raw: { width, height, channels: 3 } })
      .withExif({
        IFD0: { Make: "Canon", Model: "Canon EOS R5", Orientation: "1" },
        IFD2: { DateTimeOriginal: "2024:05:01 10:00:00" },
      })
      .jpeg({ quality: 94, chromaSubsampling: "4:2:0" })
      .toFile(file);
    files.push(file);
  }
  return files;
}

interface Timed {
  ms: number;
  peakRssMb: number;
}

async function benchSet(name: string, files: string[], work: string): Promise<{ vips: number; magick: number }> {
  const staged = stage(files, path.join(work, `${name}-in`));
  const megapixels =
    (await Promise.all(staged.map(async (file) => sharp(file).metadata()))).reduce(
      (sum, meta) => sum + (meta.width ?? 0) * (meta.height ?? 0),
      0,
    ) / 1e6;
  const megabytes = staged.reduce((sum, file) => sum + fs.statSync(file).size, 0) / 1024 / 1024;
  const listFile = path.join(work, `${name}.json`);
  fs.writeFileSync(listFile, JSON.stringify(staged));
  const fresh = (contender: string) => {
    const dir = path.join(work, `${name}-${contender}`);
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    return dir;
  };

  const dams = async (mode: "renditions" | "photo"): Promise<Timed> => {
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
  const magickAll = async (): Promise<Timed> => {
    const out = fresh("magick");
    let peak = 0;
    const started = performance.now();
    await pool(staged, parallelism, async (file, index) => {
      const o = (suffix: string) => path.join(out, `${index}-${suffix}`);
      // One decode (shrunk while reading), the preview written as JPEG and WebP, then the square from it.
      const args = [
        "-define",
        "jpeg:size=3200x3200",
        file,
        "-auto-orient",
        "-strip",
        "-resize",
        "1600x1600>",
        ...["(", "+clone", "-quality", "82", "-interlace", "JPEG", "-write", o("p.jpg"), "+delete", ")"],
        ...["(", "+clone", "-quality", "80", "-define", "webp:method=2", "-write", o("p.webp"), "+delete", ")"],
        ...["-thumbnail", "320x320^", "-gravity", "center", "-extent", "320x320"],
        ...["(", "+clone", "-quality", "82", "-interlace", "JPEG", "-write", o("t.jpg"), "+delete", ")"],
        ...["-quality", "80", "-define", "webp:method=2", o("t.webp")],
      ];
      const run = await measure(magick, args);
      if (run.status !== 0) throw new Error(`convert failed on ${file}`);
      peak = Math.max(peak, run.peakRssMb);
    });
    return { ms: performance.now() - started, peakRssMb: peak };
  };

  const contenders = {
    dams: () => dams("renditions"),
    vips: () => vipsRenditions(staged, parallelism, path.join(work, `${name}-vips`), 1),
    vips4: () => vipsRenditions(staged, parallelism, path.join(work, `${name}-vips4`), 4),
    magick: magickAll,
    photo: () => dams("photo"),
  };
  type Key = keyof typeof contenders;
  const times: Record<Key, number[]> = { dams: [], vips: [], vips4: [], magick: [], photo: [] };
  const peaks: Record<Key, number> = { dams: 0, vips: 0, vips4: 0, magick: 0, photo: 0 };
  // Warm the page cache and the tools once, then alternate so drift in the machine's load hits all alike.
  await contenders.dams();
  await contenders.vips();
  const sampler = new LoadSampler();
  for (let round = 0; round < rounds; round++) {
    for (const key of Object.keys(contenders) as Key[]) {
      const measured = await contenders[key]();
      times[key].push(measured.ms);
      peaks[key] = Math.max(peaks[key], measured.peakRssMb);
    }
  }
  const load = sampler.stop();

  const rate = (key: Key) => files.length / (median(times[key]) / 1000);
  const line = (label: string, key: Key) =>
    `  ${label.padEnd(58)} ${median(times[key]).toFixed(0).padStart(6)} ms  ${rate(key).toFixed(1).padStart(6)} photos/s  (${times[key].map((ms) => ms.toFixed(0)).join(", ")})  peak RSS ${peaks[key].toFixed(0)} MiB per process`;
  const versusVips = median(times.vips) / median(times.dams);
  const versusMagick = median(times.magick) / median(times.dams);
  console.log(
    [
      "",
      `${name}: ${files.length} JPEGs, ${(megapixels / files.length).toFixed(1)} MP and ${(megabytes / files.length).toFixed(2)} MB on average, ${parallelism} lanes, median of ${rounds} rounds alternated; ${load}`,
      line("dams imageDerivatives (the photo job's renditions)", "dams"),
      line("vipsthumbnail, one decode, the same 4 files", "vips"),
      line("vipsthumbnail, 4 decodes (one per file)", "vips4"),
      line("ImageMagick convert, one decode, the same 4 files", "magick"),
      line("dams photo step (renditions + metadata + perceptual hash)", "photo"),
      `  ratio dams / vips one decode (throughput) = ${versusVips.toFixed(2)} (target >= 0.9: ${versusVips >= 0.9 ? "met" : "NOT met"}); ${load}`,
      `  ratio dams / ImageMagick (throughput)     = ${versusMagick.toFixed(1)} (target >= 5: ${versusMagick >= 5 ? "met" : "NOT met"})`,
    ].join("\n"),
  );
  return { vips: versusVips, magick: versusMagick };
}

async function main(): Promise<void> {
  ensureDebianPackages([
    { command: "vipsthumbnail", package: "libvips-tools" },
    { command: "convert", path: magick, package: "imagemagick" },
  ]);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "dams-bench-thumbs-"));
  try {
    const corpusSet = await corpusFiles(work);
    const camera = await cameraPhotos(corpusSet, path.join(work, "camera"), cameraFiles);
    const results = [await benchSet("corpus", corpusSet, work), await benchSet("24 MP", camera, work)];
    const met = results.every((result) => result.vips >= 0.9 && result.magick >= 5);
    console.log(met ? "\nall targets met" : "\nsome targets NOT met");
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
