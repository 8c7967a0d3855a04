import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import sharp from "sharp";
import { loadConfig } from "../server/src/config.js";
import { SystemMediaTools } from "../server/src/media/index.js";
import { LocalBlobStore } from "../server/src/modules/blobs/local-blob-store.js";
import { OutgoingCopies, type OutgoingStory } from "../server/src/modules/outgoing/outgoing-copies.js";
import { LoadSampler, median, spread } from "./machine.js";
import { benchPhotos } from "./media-tools.js";

/**
 * Metadata on the way out (issue 15): the download of a 24 MP JPEG original
 * as dams sends it now — the story's fields embedded by the long-lived
 * exiftool into a copy, cached in the blob store per story revision — against
 * the peer, the same stored file sent as it is (a read of the blob to the
 * end, what `sendBlob` streams). Three cases, rounds alternated:
 *   plain     the stored blob read whole;
 *   uncached  a new revision (an edit), so the copy is made, stored, then read;
 *   cached    the copy of the same revision found by `stat` and read.
 * The HTTP layer is the same for all three and left out. Printed: medians in
 * ms, the added latency and the ratio plain/case.
 *
 *   npm run bench:outgoing -w bench      (BENCH_ROUNDS=15, BENCH_SIZE=6000x4000)
 */
const rounds = Number(process.env.BENCH_ROUNDS ?? 15);
const [width, height] = (process.env.BENCH_SIZE ?? "6000x4000").split("x").map(Number) as [number, number];

const sink = () =>
  new Writable({
    write(_chunk, _encoding, done) {
      done();
    },
  });

async function main(): Promise<void> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "dams-bench-outgoing-"));
  const load = new LoadSampler();
  try {
    // A corpus photo at 24 MP with sensor-like noise, so the file is the size a camera's is (≈ 10 MB), not a smooth 1 MB.
    const [smooth] = await benchPhotos(path.join(work, "in"), 1, width, height);
    const photo = path.join(work, "in", "noisy.jpg");
    const noise = await sharp({
      create: { width, height, channels: 3, background: "#000000", noise: { type: "gaussian", mean: 0, sigma: 18 } },
    })
      .png()
      .toBuffer();
    await sharp(smooth!)
      .composite([{ input: noise, blend: "add" }])
      .jpeg({ quality: 92 })
      .toFile(photo);
    const size = fs.statSync(photo).size;
    const blobs = new LocalBlobStore(path.join(work, "blobs"));
    const key = "originals/be/nc/bench-original";
    await blobs.putFile(key, photo);
    const media = new SystemMediaTools(loadConfig({ DAMS_LOG_LEVEL: "silent", DAMS_DATA_DIR: work }).media);
    const outgoing = new OutgoingCopies({ blobs, media, workDir: path.join(work, "tmp") });
    const story: OutgoingStory = {
      id: "0b5e7a52-1d3c-4a8e-9f10-3c2b1a000001",
      revision: 1,
      title: "台风山竹登陆深圳",
      caption: "9月16日，台风“山竹”在广东台山登陆，深圳湾海浪翻涌。".repeat(4),
      authors: ["王小明", "李华"],
      source: "深圳特区报",
      keywords: ["台风", "typhoon", "深圳"],
      capturedAt: "2018-09-16T09:30:00.000Z",
      properties: { credit: "新华社", copyrightNotice: "© 2018", usageTerms: "仅限新闻报道使用", city: "深圳" },
    };
    const source = { blobKey: key, fileName: "bench.jpg", contentType: "image/jpeg" };
    const read = async (blobKey: string) => pipeline(await blobs.get(blobKey), sink());
    const time = async (work: () => Promise<unknown>) => {
      const started = performance.now();
      await work();
      return performance.now() - started;
    };
    // Warm-up: exiftool started, the file in the page cache.
    await read(key);
    await outgoing.file(source, story, { level: "all" });

    const plain: number[] = [];
    const uncached: number[] = [];
    const cached: number[] = [];
    for (let round = 0; round < rounds; round++) {
      plain.push(await time(() => read(key)));
      story.revision++;
      uncached.push(await time(async () => read((await outgoing.file(source, story, { level: "all" })).blobKey)));
      cached.push(await time(async () => read((await outgoing.file(source, story, { level: "all" })).blobKey)));
    }
    await media.close();
    const p = median(plain);
    const line = (name: string, values: number[]) => {
      const m = median(values);
      return `  ${name.padEnd(9)} ${spread(values, 1)} ms  added ${(m - p).toFixed(1)} ms, ratio plain/${name} ${(p / m).toFixed(3)}`;
    };
    console.log(
      `outgoing metadata: one ${width}×${height} JPEG (${(size / 1e6).toFixed(1)} MB), ${rounds} rounds (median), ${load.stop()}`,
    );
    console.log(`  plain     ${spread(plain, 1)} ms`);
    console.log(line("uncached", uncached));
    console.log(line("cached", cached));
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

await main();
