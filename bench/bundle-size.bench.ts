import { gzipSync } from "node:zlib";
import { startBenchServer } from "./app-server.js";
import { against, launchChromium } from "./browser.js";
import { loadNow } from "./machine.js";

/**
 * The JavaScript a browser loads for /frontend/search, measured for real: the
 * built web app (web/dist) served by the server, opened in headless Chromium
 * with a session, every JavaScript response from the app's origin until the
 * page shows its results and the network is idle. Counted as the browser
 * receives it: the body's bytes on the wire, in whatever Content-Encoding the
 * server chose for Chromium's Accept-Encoding (Playwright's request sizes).
 * The same files gzipped at level 6 are printed beside, for comparison with
 * earlier figures. Target (issue 5): 300 KB on the wire.
 *
 *   npm run build -w web && npm run bench:bundle -w bench
 */
const TARGET_KB = 300;
const PATH = process.env.BENCH_PATH ?? "/frontend/search";

console.log(`JavaScript loaded by ${PATH} (web/dist as built)`);
const server = await startBenchServer(200);
const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
  const scripts: { url: string; body: Promise<Buffer>; wire: Promise<number>; encoding: string }[] = [];
  page.on("response", (response) => {
    const url = new URL(response.url());
    if (url.origin !== server.base || !url.pathname.endsWith(".js")) return;
    scripts.push({
      url: url.pathname,
      body: response.body(),
      wire: response
        .request()
        .sizes()
        .then((sizes) => sizes.responseBodySize),
      encoding: response.headers()["content-encoding"] ?? "identity",
    });
  });
  await page.goto(`${server.base}${PATH}#access_token=${encodeURIComponent(server.token)}`, {
    waitUntil: "networkidle",
  });
  if (PATH === "/frontend/search") await page.getByTestId("story-card").first().waitFor({ timeout: 30_000 });
  await page.waitForLoadState("networkidle");

  let raw = 0;
  let gzipped = 0;
  let wire = 0;
  const rows: { url: string; raw: number; gzipped: number; wire: number; encoding: string }[] = [];
  for (const script of scripts) {
    const body = await script.body;
    const size = {
      url: script.url,
      raw: body.length,
      gzipped: gzipSync(body, { level: 6 }).length,
      wire: await script.wire,
      encoding: script.encoding,
    };
    rows.push(size);
    raw += size.raw;
    gzipped += size.gzipped;
    wire += size.wire;
  }
  rows.sort((a, b) => b.wire - a.wire);
  const kb = (bytes: number) => (bytes / 1024).toFixed(1).padStart(7);
  console.log("  on the wire (encoding)      gzip -6      raw   file");
  for (const row of rows)
    console.log(`  ${kb(row.wire)} KB (${row.encoding.padEnd(8)}) ${kb(row.gzipped)} KB ${kb(row.raw)} KB  ${row.url}`);
  const totalKb = wire / 1024;
  console.log(
    `  ${rows.length} files: ${(raw / 1024).toFixed(0)} KB raw, ${(gzipped / 1024).toFixed(1)} KB gzipped at level 6, ${totalKb.toFixed(1)} KB on the wire`,
  );
  console.log(`  initial JavaScript on the wire: ${against(totalKb, TARGET_KB, "KB")}; ${loadNow()}`);
  console.log(totalKb <= TARGET_KB ? "\ntarget met" : "\ntarget NOT met");
} finally {
  await browser.close();
  await server.close();
}
