import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { precompressDirectory } from "./precompress";

describe("precompressDirectory", () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  function outDir(files: Record<string, string | Buffer>): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dams-precompress-"));
    dirs.push(dir);
    for (const [name, content] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      fs.writeFileSync(path.join(dir, name), content);
    }
    return dir;
  }

  it("writes brotli and gzip copies of text files that decompress to the same bytes", async () => {
    const script = `export const words = ${JSON.stringify(Array.from({ length: 500 }, (_, i) => `word ${i}`))};\n`;
    const dir = outDir({ "index.html": `<!doctype html>${"<p>hello</p>".repeat(200)}`, "assets/app-1a2b.js": script });
    const summary = await precompressDirectory(dir);
    expect(summary.files).toBe(2);
    const js = path.join(dir, "assets/app-1a2b.js");
    expect(brotliDecompressSync(fs.readFileSync(`${js}.br`)).toString()).toBe(script);
    expect(gunzipSync(fs.readFileSync(`${js}.gz`)).toString()).toBe(script);
    expect(fs.statSync(`${js}.br`).size).toBeLessThan(fs.statSync(`${js}.gz`).size);
    expect(fs.existsSync(path.join(dir, "index.html.br"))).toBe(true);
  });

  it("leaves small files and binary formats alone", async () => {
    const dir = outDir({ "assets/tiny.js": "console.log(1)", "assets/logo.png": Buffer.alloc(4096, 1) });
    await precompressDirectory(dir);
    expect(fs.readdirSync(path.join(dir, "assets")).sort()).toEqual(["logo.png", "tiny.js"]);
  });

  it("compresses a chunk of a few hundred bytes, as the app's small lazy chunks are", async () => {
    // Like the icon chunks of the search page: an import, a component, an export (≈ 500 bytes).
    const chunk = `import{j as e}from"./index-BNYpwfWg.js";${Array.from({ length: 8 }, (_, i) => `const a${i}=(t)=>e.jsx("span",{className:"anticon anticon-${i}",...t});`).join("")}export{a0 as default};`;
    expect(chunk.length).toBeLessThan(1024);
    const dir = outDir({ "assets/DeleteOutlined-I7IhzJg8.js": chunk });
    await precompressDirectory(dir);
    const file = path.join(dir, "assets/DeleteOutlined-I7IhzJg8.js");
    expect(brotliDecompressSync(fs.readFileSync(`${file}.br`)).toString()).toBe(chunk);
    expect(gunzipSync(fs.readFileSync(`${file}.gz`)).toString()).toBe(chunk);
  });
});
