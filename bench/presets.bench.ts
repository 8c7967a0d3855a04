import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { loadConfig } from "../server/src/config.js";
import { type RenditionSpec, SystemMediaTools } from "../server/src/media/index.js";
import { LoadSampler, median } from "./machine.js";
import { benchPhotos, ensureDebianPackages, inLanes, pool, vipsPreviewsCopied } from "./media-tools.js";

/**
 * A download preset over 200 photos (issue 17): a 1600 px JPEG q82, sRGB,
 * metadata stripped, made by dams' rendition code (MediaTools.presetRendition,
 * what the "presets.render" job runs) into a work folder and copied to a
 * destination folder, against the same resize by `vipsthumbnail` (Debian
 * libvips-tools) plus `cp`, one process per lane over its share of the files.
 * Same files, same lanes (the machine's cores), rounds alternated. The ratio
 * printed is dams' throughput over the peer's (issue 17's target: ≥ 0.7).
 * For the record: the default preset (credit, caption and copyright kept, by
 * exiftool) and a text watermark in Chinese.
 *
 *   npm run bench:presets -w bench      (BENCH_FILES=200, BENCH_ROUNDS=3, BENCH_SIZE=3000x2000)
 */
const fileCount = Number(process.env.BENCH_FILES ?? 200);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const [width, height] = (process.env.BENCH_SIZE ?? "3000x2000").split("x").map(Number) as [number, number];
const lanes = Number(process.env.BENCH_PARALLELISM ?? Math.max(1, os.availableParallelism()));

const spec: RenditionSpec = {
  format: "jpeg",
  maxWidth: 1600,
  maxHeight: 1600,
  quality: 82,
  srgb: true,
  metadata: "none",
  videoBitrateKbps: 0,
  audioBitrateKbps: 0,
  watermark: null,
};

async function main(): Promise<void> {
  ensureDebianPackages([{ command: "vipsthumbnail", package: "libvips-tools" }]);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "dams-bench-presets-"));
  const load = new LoadSampler();
  try {
    const files = await benchPhotos(path.join(work, "in"), fileCount, width, height);
    const media = new SystemMediaTools(loadConfig({ DAMS_LOG_LEVEL: "silent", DAMS_DATA_DIR: work }).media);
    const shares = inLanes(files, lanes);

    const dams = async (round: number, variant: RenditionSpec): Promise<number> => {
      const out = path.join(work, `dams-${round}`);
      const dest = path.join(work, `dams-dest-${round}`);
      fs.mkdirSync(out, { recursive: true });
      fs.mkdirSync(dest, { recursive: true });
      const started = performance.now();
      await pool(files, lanes, async (file, index) => {
        const made = path.join(out, `${index}.jpg`);
        await media.presetRendition(file, made, variant);
        await fs.promises.copyFile(made, path.join(dest, `${index}.jpg`));
      });
      return performance.now() - started;
    };
    const vips = (round: number): Promise<number> =>
      vipsPreviewsCopied(shares, path.join(work, `vips-${round}`), path.join(work, `vips-dest-${round}`));

    const damsMs: number[] = [];
    const vipsMs: number[] = [];
    for (let round = 0; round < rounds; round++) {
      damsMs.push(await dams(round, spec));
      vipsMs.push(await vips(round));
      process.stdout.write(
        `round ${round + 1}: dams ${damsMs.at(-1)!.toFixed(0)} ms, vips+cp ${vipsMs.at(-1)!.toFixed(0)} ms\n`,
      );
    }
    const rights = await dams(99, { ...spec, metadata: "rights" });
    const watermarked = await dams(98, {
      ...spec,
      watermark: {
        mark: {
          type: "text",
          text: "新华社 中文水印",
          textWidth: 300,
          fontSize: 30,
          fontFamily: "Microsoft YaHei",
          color: "#ffffff",
          background: "#000000",
        },
        position: "lower-right",
        opacity: 100,
        x: 0,
        y: 0,
      },
    });
    await media.close();
    const perSecond = (ms: number) => (files.length / ms) * 1000;
    const damsRate = perSecond(median(damsMs));
    const vipsRate = perSecond(median(vipsMs));
    const ratio = damsRate / vipsRate;
    console.log(
      [
        `presets: ${files.length} photos ${width}×${height} → 1600 px JPEG q82 sRGB, stripped, ${lanes} lanes, ${rounds} rounds (median), ${load.stop()}`,
        `  dams (MediaTools.presetRendition + copy): ${damsRate.toFixed(1)} photos/s`,
        `  vipsthumbnail + cp:                       ${vipsRate.toFixed(1)} photos/s`,
        `  ratio dams / peer: ${ratio.toFixed(2)} (target ≥ 0.7)${ratio >= 0.7 ? "" : "  BELOW TARGET"}`,
        `  for the record: credit/caption/copyright kept (exiftool) ${perSecond(rights).toFixed(1)} photos/s; 中文 text watermark ${perSecond(watermarked).toFixed(1)} photos/s`,
      ].join("\n"),
    );
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

await main();
