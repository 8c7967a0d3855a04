import fs from "node:fs";
import path from "node:path";
import { brotliCompressSync, gzipSync } from "node:zlib";

export const INDEX_HTML = `<!doctype html><div id=root></div>${"<!-- padding -->".repeat(80)}`;
export const APP_JS = `console.log(${JSON.stringify("x".repeat(2000))})`;
/** A script as Vite names it: `<name>-<8 characters of hash>.js`. */
export const APP_JS_URL = "/assets/app-B1x_9-Qz.js";

/**
 * A built web app as web/vite-plugins/precompress.ts leaves it: index.html and
 * a hashed script, each with its `.br` and `.gz`; a file copied from
 * web/public (no hash, no compressed copies).
 */
export function prepareWebDir(): string {
  const dir = fs.mkdtempSync(path.join(process.env.TMPDIR ?? "/tmp", "dams-web-"));
  fs.mkdirSync(path.join(dir, "assets"));
  for (const [name, content] of [
    ["index.html", INDEX_HTML],
    [APP_JS_URL.slice(1), APP_JS],
  ] as const) {
    const file = path.join(dir, name);
    fs.writeFileSync(file, content);
    fs.writeFileSync(`${file}.br`, brotliCompressSync(content));
    fs.writeFileSync(`${file}.gz`, gzipSync(content));
  }
  fs.writeFileSync(path.join(dir, "assets", "logo.svg"), `<svg xmlns="http://www.w3.org/2000/svg"></svg>`);
  return dir;
}
