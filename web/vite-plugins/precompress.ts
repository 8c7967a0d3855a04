import fs from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import type { Plugin } from "vite";

/**
 * The built web app, compressed once at build time: next to each text file
 * (JavaScript, CSS, HTML, SVG, JSON…) of the output, a `.br` (brotli, the
 * highest quality) and a `.gz` (gzip level 9). The server sends the one the
 * browser's Accept-Encoding prefers (@fastify/static's `preCompressed`), so
 * no request pays for compression and browsers get brotli's smaller files. A
 * compressed copy that would not save a tenth of the file is not written;
 * the file is then sent as it is.
 */

export const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|xml|wasm|map)$/i;
/**
 * Below this a copy saves too little to keep. At 1024 the search page's first
 * load fetched 12 chunks of 0.2–1.0 KB uncompressed (7.6 KB, ≈ 5 KB gzipped);
 * a copy is still written only if it saves a tenth of the file.
 */
export const MIN_BYTES = 200;

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

export interface PrecompressSummary {
  files: number;
  bytes: number;
  brotliBytes: number;
  gzipBytes: number;
}

async function compressOne(file: string, summary: PrecompressSummary): Promise<void> {
  const bytes = await fs.readFile(file);
  if (bytes.length < MIN_BYTES) return;
  const [br, gz] = await Promise.all([
    brotli(bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      },
    }),
    gzipped(bytes, { level: 9 }),
  ]);
  const worthIt = (compressed: Buffer) => compressed.length < bytes.length * 0.9;
  summary.files++;
  summary.bytes += bytes.length;
  summary.brotliBytes += worthIt(br) ? br.length : bytes.length;
  summary.gzipBytes += worthIt(gz) ? gz.length : bytes.length;
  await Promise.all([
    worthIt(br) ? fs.writeFile(`${file}.br`, br) : fs.rm(`${file}.br`, { force: true }),
    worthIt(gz) ? fs.writeFile(`${file}.gz`, gz) : fs.rm(`${file}.gz`, { force: true }),
  ]);
}

/** Writes the compressed copies of every compressible file under `dir`. */
export async function precompressDirectory(dir: string): Promise<PrecompressSummary> {
  const summary: PrecompressSummary = { files: 0, bytes: 0, brotliBytes: 0, gzipBytes: 0 };
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((entry) => entry.isFile() && COMPRESSIBLE.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
  // A few at a time: brotli at its highest quality is CPU-bound.
  for (let index = 0; index < files.length; index += 4)
    await Promise.all(files.slice(index, index + 4).map((file) => compressOne(file, summary)));
  return summary;
}

/** The Vite plugin: compresses the output directory once the bundle is written. */
export function precompress(): Plugin {
  return {
    name: "dams-precompress",
    apply: "build",
    async writeBundle(options) {
      if (!options.dir) return;
      const summary = await precompressDirectory(options.dir);
      const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;
      this.info(
        `precompressed ${summary.files} files: ${kb(summary.bytes)} → ${kb(summary.brotliBytes)} brotli, ${kb(summary.gzipBytes)} gzip`,
      );
    },
  };
}
