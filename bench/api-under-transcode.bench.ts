import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import Sqlite from "better-sqlite3";
import { SERVER_NODE_FLAGS } from "../scripts/node-flags.mjs";
import { sender, tusPostPatch } from "./bare-peer.js";
import { prepareStories } from "./bench-data.js";
import { benchServerEnv } from "./built-server.js";
import { LoadSampler } from "./machine.js";
import { selectiveWord } from "./search-data.js";

/**
 * Does a video job starve the API? The built server (`dams serve`, SQLite,
 * one job worker in the process, DAMS_MEDIA_NICE and DAMS_MEDIA_THREADS as
 * the environment gives them, else their defaults) over 10 000 generated
 * stories takes a mix of 50 concurrent connections alternating GET one story
 * and a search, signed in, while the worker transcodes a 60 s 720p clip
 * (ffmpeg testsrc2) uploaded through tus. The windows alternate, BENCH_ROUNDS
 * (4) times: BENCH_SECONDS (8) with the transcode running, then as long with
 * it paused (every ffmpeg the server started gets SIGSTOP, and SIGCONT at the
 * next "with" window), so both conditions see the same machine: on a shared
 * machine whose other load swings by the minute, consecutive long windows
 * compared the neighbours' work, not ours. Prints each condition's p50/p99
 * (a timeout counts as its 10 s), the timeouts, whether the transcode was
 * still running at the end of every "with" window, the machine's load, and
 * the ratio of the p99 with the transcode to the p99 without it. Target
 * (issue 14): at most 2. The before of issue 14's item 16 is
 * `DAMS_MEDIA_NICE=0 DAMS_MEDIA_THREADS=0`.
 *
 *   npm run build -w server && npx tsx bench/api-under-transcode.bench.ts
 */
const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const rounds = Number(process.env.BENCH_ROUNDS ?? 4);
const connections = 50;
const timeoutSeconds = 10;
const root = path.resolve(import.meta.dirname, "..");
const cli = path.join(root, "server/dist/cli.js");
const port = 18_730;
const base = `http://127.0.0.1:${port}`;
const API = "/dams/api/v1";

/** Latencies (ms) of one condition over all its windows; a timeout counts as the timeout. */
class Condition {
  readonly latencies: number[] = [];
  timeouts = 0;
  errors = 0;

  percentile(p: number): number {
    const sorted = [...this.latencies].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
  }
}

async function mix(token: string, paths: string[], into: Condition): Promise<void> {
  const run = autocannon({
    url: base,
    connections,
    duration: seconds,
    timeout: timeoutSeconds,
    headers: { authorization: `Bearer ${token}` },
    requests: paths.map((requestPath) => ({ method: "GET", path: requestPath })),
  }) as unknown as autocannon.Instance & Promise<autocannon.Result>; // without a callback: both
  run.on("response", (_client, statusCode, _bytes, responseTime) => {
    if (statusCode >= 200 && statusCode < 300) into.latencies.push(responseTime);
    else into.errors++;
  });
  const result = await run;
  into.timeouts += result.timeouts;
  for (let i = 0; i < result.timeouts; i++) into.latencies.push(timeoutSeconds * 1000);
}

/** The ffmpeg processes `parent` started (nice and prlimit exec the tool, so they are its children). */
function ffmpegChildren(parent: number): number[] {
  const found: number[] = [];
  for (const pid of fs.readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
      const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === parent && name === "ffmpeg") found.push(Number(pid));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

function signal(pids: number[], name: "SIGSTOP" | "SIGCONT"): void {
  for (const pid of pids) {
    try {
      process.kill(pid, name);
    } catch {
      // it ended
    }
  }
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

    dams = spawn(process.execPath, [...SERVER_NODE_FLAGS, cli, "serve"], {
      cwd: root,
      env: benchServerEnv(port, dataDir, { DAMS_WORKERS: "1", DAMS_ADMIN_PASSWORD: "bench-password" }),
      stdio: ["ignore", "ignore", "inherit"],
    });
    const serverPid = dams.pid!;
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
    await mix(token, paths, new Condition()); // warm-up

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
    // The proxy transcode is the long ffmpeg: wait until one runs.
    while (ffmpegChildren(serverPid).length === 0) await new Promise((resolve) => setTimeout(resolve, 100));

    const sampler = new LoadSampler();
    const withTranscode = new Condition();
    const without = new Condition();
    let ranThroughout = 0;
    for (let round = 0; round < rounds; round++) {
      await mix(token, paths, withTranscode);
      if (ffmpegChildren(serverPid).length > 0) ranThroughout++;
      // Paused: stop the tools now and any the job starts meanwhile.
      let paused = true;
      const stopped: number[] = [];
      const pause = (async () => {
        while (paused) {
          const running = ffmpegChildren(serverPid).filter((pid) => !stopped.includes(pid));
          signal(running, "SIGSTOP");
          stopped.push(...running);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      })();
      await mix(token, paths, without);
      paused = false;
      await pause;
      signal(stopped, "SIGCONT");
    }
    const load = sampler.stop();
    const processing = await state();

    const line = (label: string, condition: Condition) =>
      `  ${label.padEnd(28)} p50 ${condition.percentile(50).toFixed(0).padStart(5)} ms, p99 ${condition.percentile(99).toFixed(0).padStart(5)} ms, ${condition.latencies.length - condition.timeouts} answered, ${condition.timeouts} timeouts, ${condition.errors} errors`;
    const ratio = withTranscode.percentile(99) / without.percentile(99);
    console.log(
      [
        `API mix (GET one story, search ${selectiveWord(7)}), ${connections} connections, ${rounds} × (${seconds} s with, ${seconds} s without) a 60 s 720p transcode, 10 000 stories, SQLite; DAMS_MEDIA_NICE=${process.env.DAMS_MEDIA_NICE ?? "default"} DAMS_MEDIA_THREADS=${process.env.DAMS_MEDIA_THREADS ?? "default"}`,
        line("with the transcode running", withTranscode),
        line("with it paused (SIGSTOP)", without),
        `  the transcode still ran at the end of ${ranThroughout} of ${rounds} "with" windows; the story's processing now: ${processing}`,
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
