import fs from "node:fs";
import { startBenchServer } from "./app-server.js";
import { against, launchChromium, percentile } from "./browser.js";
import { loadNow } from "./machine.js";

/**
 * Scrolling the search page's result grid over 100 000 stories, in headless
 * Chromium against the built web app and the real server: the wheel turns
 * continuously for BENCH_SECONDS (10), with a jump to the end of the result
 * near the end (past the browser's maximum element height, through the
 * grid's scroll mapping). Records every animation frame's interval and every
 * long task, and prints the dropped frames (each interval counted in 60 Hz
 * vsyncs: an interval of two vsyncs dropped one frame), p50/p95/p99 frame
 * time and the longest task, against the targets of issues 5 and 21: at most
 * 1 % of frames dropped, no task over 50 ms. (A p95 of 16.7 ms failed on a
 * perfect 60 Hz run, whose frames measure 16.6–16.8 ms.)
 *
 *   npm run build -w web && npm run bench:grid -w bench
 *   BENCH_STORIES=1000000 npm run bench:grid -w bench
 *
 * BENCH_TRACE=file.json records a Chromium trace of the scrolling (main
 * thread events and JavaScript samples, through the page's CDP session), to
 * open in DevTools' Performance panel and see what a long task was; the
 * tracing slows the page, so its run's figures are not the ones to report.
 */
const storyCount = Number(process.env.BENCH_STORIES ?? 100_000);
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const tracePath = process.env.BENCH_TRACE;
const VSYNC_MS = 1000 / 60;
const DROPPED_TARGET_PERCENT = 1;
const LONG_TASK_MS = 50;

interface Recorded {
  frames: number[];
  longTasks: number[];
}

/**
 * Runs in the page: every animation frame's interval and every long task,
 * until `window.__bench.stop`. A string, because tsx's helpers do not exist
 * in the page.
 */
const RECORDER = `(() => {
  const state = { frames: [], longTasks: [], stop: false };
  window.__bench = state;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) state.longTasks.push(entry.duration);
  }).observe({ type: "longtask" });
  let last = 0;
  const tick = (now) => {
    state.frames.push(now - last);
    last = now;
    if (!state.stop) requestAnimationFrame(tick);
  };
  requestAnimationFrame((now) => {
    last = now;
    requestAnimationFrame(tick);
  });
})()`;

console.log(`grid scroll over ${storyCount} stories, ${seconds} s of wheel scrolling, 1366×900`);
const server = await startBenchServer(storyCount);
const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
  await page.goto(`${server.base}/frontend/search#access_token=${encodeURIComponent(server.token)}`);
  const grid = page.getByTestId("story-grid");
  await grid.waitFor({ timeout: 60_000 });
  const total = Number(await grid.getAttribute("data-total"));
  if (total !== storyCount) throw new Error(`the grid shows ${total} stories, not ${storyCount}`);
  await page.getByTestId("story-card").first().waitFor();
  const box = await grid.boundingBox();
  if (!box) throw new Error("the grid has no box");
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);

  const cdp = tracePath ? await page.context().newCDPSession(page) : undefined;
  const traceEvents: unknown[] = [];
  const traced = new Promise<void>((resolve) => {
    cdp?.on("Tracing.dataCollected", (event) => traceEvents.push(...event.value));
    cdp?.once("Tracing.tracingComplete", () => resolve());
  });
  await cdp?.send("Tracing.start", {
    transferMode: "ReportEvents",
    traceConfig: {
      includedCategories: [
        "devtools.timeline",
        "disabled-by-default-devtools.timeline",
        "v8.execute",
        "disabled-by-default-v8.cpu_profiler",
        "blink.user_timing",
      ],
    },
  });
  await page.evaluate(RECORDER);

  const started = Date.now();
  const jumpAt = seconds * 0.8 * 1000;
  let jumped = false;
  let wheels = 0;
  while (Date.now() - started < seconds * 1000) {
    if (!jumped && Date.now() - started >= jumpAt) {
      // Drag-the-thumb style jump to the very end: the last rows must come into view.
      await grid.evaluate((element) => {
        element.scrollTop = element.scrollHeight;
      });
      jumped = true;
      continue;
    }
    await page.mouse.wheel(0, jumped ? -120 : 120);
    wheels++;
  }
  const result = await page.evaluate<Recorded>("(() => { window.__bench.stop = true; return window.__bench; })()");
  if (cdp && tracePath) {
    await cdp.send("Tracing.end");
    await traced;
    fs.writeFileSync(tracePath, JSON.stringify({ traceEvents }));
    console.log(`  trace written to ${tracePath}`);
  }

  // After the jump (and a little wheel back up) the end of the result is near:
  // jump to the end again and check the last story of the result is drawn.
  await grid.evaluate((element) => {
    element.scrollTop = element.scrollHeight;
  });
  const lastPage = Math.floor((storyCount - 1) / 100);
  const response = await fetch(`${server.base}/dams/api/v1/stories?page=${lastPage}&size=100`, {
    headers: { authorization: `Bearer ${server.token}` },
  });
  const content = ((await response.json()) as { data: { content: { libraryId: string; storyId: string }[] } }).data
    .content;
  const last = content.at(-1);
  const lastKey = last ? `${last.libraryId}/${last.storyId}` : "";
  const reachedEnd = await page
    .locator(`[data-story="${lastKey}"]`)
    .waitFor({ timeout: 15_000 })
    .then(
      () => true,
      () => false,
    );
  const scrollHeight = await grid.evaluate((element) => element.scrollHeight);

  const frames = result.frames.slice(1).sort((a, b) => a - b);
  const p50 = percentile(frames, 50);
  const p95 = percentile(frames, 95);
  const p99 = percentile(frames, 99);
  const longest = Math.max(0, ...result.longTasks);
  const over = result.longTasks.filter((duration) => duration > LONG_TASK_MS).length;
  // Each interval spans a whole number of vsyncs; all but one of them were frames not drawn.
  const vsyncs = frames.map((frame) => Math.max(1, Math.round(frame / VSYNC_MS)));
  const dropped = vsyncs.reduce((sum, count) => sum + count - 1, 0);
  const droppedPercent = (100 * dropped) / vsyncs.reduce((sum, count) => sum + count, 0);
  console.log(
    `  ${wheels} wheel steps of 120 px, ${frames.length} frames drawn, spacer ${scrollHeight} px; ${loadNow()}`,
  );
  console.log(`  frame time p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms`);
  console.log(`  dropped frames: ${dropped} = ${against(droppedPercent, DROPPED_TARGET_PERCENT, "%")}; ${loadNow()}`);
  console.log(
    `  long tasks: ${result.longTasks.length}, longest: ${against(longest, LONG_TASK_MS, "ms")}; over ${LONG_TASK_MS} ms: ${over}`,
  );
  console.log(`  the last story of the result reached after the jump: ${reachedEnd ? "yes" : "NO"}`);
  const met = droppedPercent <= DROPPED_TARGET_PERCENT && longest <= LONG_TASK_MS && reachedEnd;
  console.log(met ? "\nall targets met" : "\nsome targets NOT met");
} finally {
  await browser.close();
  await server.close();
}
