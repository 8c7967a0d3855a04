import fs from "node:fs";
import path from "node:path";
import { renderImageDerivatives, renderThumbnail } from "../server/src/media/images.js";

/**
 * One dams image worker, run as its own process by thumbnails.bench.ts so its
 * peak memory can be measured like vipsthumbnail's and ImageMagick's:
 *   tsx thumbnail-worker.ts <thumbnail|derivatives> <parallelism> <out dir> <list file>
 * Prints {"ms": …, "failed": …} for the processing alone (not the start-up).
 */
const [mode, parallelismText, outDir, listFile] = process.argv.slice(2);
if (!mode || !parallelismText || !outDir || !listFile)
  throw new Error("usage: thumbnail-worker.ts mode parallelism outDir listFile");
const files: string[] = JSON.parse(fs.readFileSync(listFile, "utf8"));
const parallelism = Number(parallelismText);
const out: string = outDir;

let next = 0;
let failed = 0;
async function lane(): Promise<void> {
  while (next < files.length) {
    const index = next++;
    const file = files[index] as string;
    try {
      if (mode === "derivatives") await renderImageDerivatives(file, path.join(out, String(index)));
      else await renderThumbnail(file, path.join(out, `${index}.jpg`), { size: 320 });
    } catch {
      failed++;
    }
  }
}

const started = performance.now();
await Promise.all(Array.from({ length: parallelism }, lane));
process.stdout.write(`${JSON.stringify({ ms: performance.now() - started, failed })}\n`);
