import { gzipSync } from "node:zlib";
import { startBenchServer } from "./app-server.js";
import { against, launchChromium } from "./browser.js";

/**
 * The JavaScript a browser loads for /frontend/search, measured for real: the
 * built web app (web/dist) served by the server, opened in headless Chromium
 * with a session, every JavaScript response from the app's origin until the
 * page shows its results and the network is idle, each gzipped (zlib level 6,
 * what a reverse proxy's gzip typically uses). Printed per file and in total
 * against issue 5's target of 300 KB gzipped.
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
  const scripts: { url: string; body: Promise<Buffer> }[] = [];
  page.on("response", (response) => {
    const url = new URL(response.url());
    if (url.origin !== server.base || !url.pathname.endsWith(".js")) return;
    scripts.push({ url: url.pathname, body: response.body() });
  });
  await page.goto(`${server.base}${PATH}#access_token=${encodeURIComponent(server.token)}`, {
    waitUntil: "networkidle",
  });
  if (PATH === "/frontend/search") await page.getByTestId("story-card").first().waitFor({ timeout: 30_000 });
  await page.waitForLoadState("networkidle");

  let raw = 0;
  let gzipped = 0;
  const rows: { url: string; raw: number; gzipped: number }[] = [];
  for (const script of scripts) {
    const body = await script.body;
    const size = { url: script.url, raw: body.length, gzipped: gzipSync(body, { level: 6 }).length };
    rows.push(size);
    raw += size.raw;
    gzipped += size.gzipped;
  }
  rows.sort((a, b) => b.gzipped - a.gzipped);
  for (const row of rows)
    console.log(
      `  ${(row.gzipped / 1024).toFixed(1).padStart(7)} KB gz ${(row.raw / 1024).toFixed(1).padStart(8)} KB  ${row.url}`,
    );
  const totalKb = gzipped / 1024;
  console.log(`  ${rows.length} files, ${(raw / 1024).toFixed(0)} KB, ${totalKb.toFixed(1)} KB gzipped`);
  console.log(`  initial JavaScript, gzipped: ${against(totalKb, TARGET_KB, "KB")}`);
  console.log(totalKb <= TARGET_KB ? "\ntarget met" : "\ntarget NOT met");
} finally {
  await browser.close();
  await server.close();
}
