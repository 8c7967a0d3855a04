import fs from "node:fs";
import path from "node:path";
import { loadConfig } from "../server/src/config.js";
import { SystemMediaTools } from "../server/src/media/index.js";

/**
 * One dams image worker, run as its own process by thumbnails.bench.ts so its
 * peak memory can be measured like vipsthumbnail's and ImageMagick's:
 *   tsx thumbnail-worker.ts <renditions|photo> <parallelism> <out dir> <list file>
 *     renditions  what the photo job renders: MediaTools.imageDerivatives of
 *                 SystemMediaTools under the default configuration (320 square
 *                 and 1600 preview, JPEG and WebP)
 *     photo       the photo job's whole media step as StoryMediaProcessor runs
 *                 it: the renditions (with the perceptual hash), then the metadata
 * Prints {"ms": …, "cpuMs": …, "failed": …} for the processing alone (not the
 * start-up); cpuMs is the process's CPU time (libvips' threads included).
 */
const [mode, parallelismText, outDir, listFile] = process.argv.slice(2);
if (!mode || !parallelismText || !outDir || !listFile)
  throw new Error("usage: thumbnail-worker.ts mode parallelism outDir listFile");
const files: string[] = JSON.parse(fs.readFileSync(listFile, "utf8"));
const parallelism = Number(parallelismText);
const out: string = outDir;
const media = new SystemMediaTools(loadConfig({ DAMS_LOG_LEVEL: "silent" }).media);

async function one(file: string, index: number): Promise<void> {
  await media.imageDerivatives(file, path.join(out, String(index)));
  if (mode === "photo") await media.imageMetadata(file);
}

let next = 0;
let failed = 0;
async function lane(): Promise<void> {
  while (next < files.length) {
    const index = next++;
    await one(files[index] as string, index).catch(() => failed++);
  }
}

const started = performance.now();
const cpu = process.cpuUsage();
await Promise.all(Array.from({ length: parallelism }, lane));
const used = process.cpuUsage(cpu);
const cpuMs = (used.user + used.system) / 1000;
process.stdout.write(`${JSON.stringify({ ms: performance.now() - started, cpuMs, failed })}\n`);
