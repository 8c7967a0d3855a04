import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import Sqlite from "better-sqlite3";
import { sender, tusPostPatch } from "./bare-peer.js";
import { prepareStories } from "./bench-data.js";
import { LoadSampler } from "./machine.js";
import { selectiveWord } from "./search-data.js";

/**
 * Does a video job starve the API? The built server (`dams serve`, SQLite,
 * one job worker in the process, the default DAMS_MEDIA_NICE and
 * DAMS_MEDIA_THREADS) over 10 000 generated stories takes a mix of 50
 * concurrent connections alternating GET one story and a search, signed in,
 * for BENCH_SECONDS (20) at a time: first alone, then while the worker
 * transcodes a 60 s 720p clip uploaded through tus (the window starts once
 * the story's processing is running), then alone again. Prints each window's
 * p50/p99 latency and timeouts (10 s), whether the transcode lasted the whole
 * window, the machine's load, and the ratio of the p99 with the transcode to
 * the mean p99 without it. Target (issue 14): at most 2.
 *
 *   npm run build -w server && npx tsx bench/api-under-transcode.bench.ts
 */
const seconds = Number(process.env.BENCH_SECONDS ?? 20);
const connections = 50;
const root = path.resolve(import.meta.dirname, "..");
const cli = path.join(root, "server/dist/cli.js");
const port = 18_730;
const base = `http://127.0.0.1:${port}`;
const API = "/dams/api/v1";

interface Window {
  p50: number;
  p99: number;
  requests: number;
  timeouts: number;
}

async function mix(token: string, paths: string[]): Promise<Window> {
  const result = await autocannon({
    url: base,
    connections,
    duration: seconds,
    timeout: 10,
    headers: { authorization: `Bearer ${token}` },
    requests: paths.map((requestPath) => ({ method: "GET", path: requestPath })),
  });
  return {
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result["2xx"],
    timeouts: result.timeouts + result.non2xx,
  };
}

function clip(file: string): void {
  execFileSync("ffmpeg", [
    ...["-hide_banner", "-loglevel", "error", "-y"],
    ...["-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=30:duration=60"],
    ...["-f", "lavfi", "-i", "sine=frequency=440:duration=60"],
    ...["-c:v", "libx264", "-preset", "ultrafast", "-crf", "20", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest"],
    file,
  ]);
}

async function main(): Promise<void> {
  if (!fs.existsSync(cli)) throw new Error("server/dist/cli.js is missing: run `npm run build -w server` first");
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "dams-bench-transcode-"));
  const agent = new http.Agent({ keepAlive: true });
  let dams: ChildProcess | undefined;
  try {
    const { token } = await prepareStories("sqlite", dataDir, 10_000, "");
    const database = new Sqlite(path.join(dataDir, "dams.sqlite"), { readonly: true });
    const { id } = database.prepare("select id from stories where library_id = 'product' limit 1").get() as {
      id: string;
    };
    database.close();
    const video = path.join(dataDir, "clip.mp4");
    clip(video);

    dams = spawn(process.execPath, [cli, "serve"], {
      cwd: root,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: "127.0.0.1",
        DAMS_DATA_DIR: dataDir,
        DAMS_WEB_DIR: path.join(dataDir, "no-web"),
        DAMS_LOG_LEVEL: "warn",
        DAMS_WORKERS: "1",
        DAMS_ADMIN_PASSWORD: "bench-password",
      },
      stdio: ["ignore", "ignore", "inherit"],
    });
    for (let attempt = 0; ; attempt++) {
      const up = await fetch(`${base}/readyz`).then(
        (response) => response.ok,
        () => false,
      );
      if (up) break;
      if (attempt > 300) throw new Error("dams did not start");
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const paths = [`${API}/stories/product/${id}`, `${API}/stories?fulltext=${selectiveWord(7)}&size=50`];
    await mix(token, paths); // warm-up
    const sampler = new LoadSampler();
    const before = await mix(token, paths);

    const send = sender(agent);
    const { storyId } = await tusPostPatch(send, base, token, fs.readFileSync(video), {
      filename: "clip.mp4",
      filetype: "video/mp4",
      libraryId: "product",
    });
    const state = async () => {
      const response = await fetch(`${base}${API}/stories/product/${storyId}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      return ((await response.json()) as { data: { processingState: string } }).data.processingState;
    };
    while ((await state()) !== "running") await new Promise((resolve) => setTimeout(resolve, 500));
    const during = await mix(token, paths);
    const stillRunning = (await state()) === "running";
    while (["queued", "running"].includes(await state())) await new Promise((resolve) => setTimeout(resolve, 1000));
    const after = await mix(token, paths);
    const load = sampler.stop();

    const line = (label: string, window: Window) =>
      `  ${label.padEnd(34)} p50 ${window.p50.toFixed(0).padStart(5)} ms, p99 ${window.p99.toFixed(0).padStart(5)} ms, ${window.requests} answered, ${window.timeouts} timeouts or errors`;
    const ratio = during.p99 / ((before.p99 + after.p99) / 2);
    console.log(
      [
        `API mix (GET one story, search ${selectiveWord(7)}), ${connections} connections, ${seconds} s windows, 10 000 stories, SQLite; ${load}`,
        line("alone, before", before),
        line("while a 60 s 720p clip transcodes", during),
        line("alone, after", after),
        `  the transcode ran the whole window: ${stillRunning ? "yes" : "NO (it ended inside it)"}`,
        `  p99 with the transcode / without = ${ratio.toFixed(2)} (target <= 2: ${ratio <= 2 ? "met" : "NOT met"}); ${load}`,
      ].join("\n"),
    );
  } finally {
    dams?.kill("SIGTERM");
    agent.destroy();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
