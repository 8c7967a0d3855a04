import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../config.js";
import { ExiftoolProcess } from "./exiftool-process.js";
import { SystemMediaTools } from "./media-tools.js";
import { runTool } from "./run-tool.js";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dams-tool-limits-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The processes whose command line holds `marker`: their nice value (field 19 of /proc/<pid>/stat) and arguments. */
function processesWith(marker: string): { nice: number; args: string[] }[] {
  const found: { nice: number; args: string[] }[] = [];
  for (const pid of fs.readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      const args = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
      if (!args.some((arg) => arg.includes(marker))) continue;
      const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
      found.push({ nice: Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]), args });
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

async function waitFor<T>(probe: () => T | undefined): Promise<T> {
  for (let attempt = 0; attempt < 600; attempt++) {
    const value = probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("gave up waiting");
}

describe("media tools run behind the API: lower priority, bounded threads", () => {
  it("defaults to nice 10 and half the cores, and takes both from the environment", () => {
    const defaults = loadConfig({}).media;
    expect(defaults.nice).toBe(10);
    expect(defaults.threads).toBe(Math.max(1, Math.floor(os.availableParallelism() / 2)));
    const set = loadConfig({ DAMS_MEDIA_NICE: "19", DAMS_MEDIA_THREADS: "3" }).media;
    expect([set.nice, set.threads]).toEqual([19, 3]);
    expect(() => loadConfig({ DAMS_MEDIA_NICE: "20" })).toThrow(/DAMS_MEDIA_NICE/);
  });

  it("refuses priorities and thread counts out of range, naming the variable", () => {
    for (const value of ["-1", "20", "1.5", "ten"])
      expect(() => loadConfig({ DAMS_MEDIA_NICE: value }), value).toThrow(/DAMS_MEDIA_NICE/);
    for (const value of ["-1", "257", "2.5", "all"])
      expect(() => loadConfig({ DAMS_MEDIA_THREADS: value }), value).toThrow(/DAMS_MEDIA_THREADS/);
    expect(loadConfig({ DAMS_MEDIA_NICE: "0", DAMS_MEDIA_THREADS: "0" }).media).toMatchObject({ nice: 0, threads: 0 });
  });

  // A named pipe as the input: the tool blocks opening it until it is cancelled, so it can be looked at.
  for (const [label, env, nice, threads] of [
    ["the defaults", {}, 10, Math.max(1, Math.floor(os.availableParallelism() / 2))],
    ["DAMS_MEDIA_NICE=17 DAMS_MEDIA_THREADS=3", { DAMS_MEDIA_NICE: "17", DAMS_MEDIA_THREADS: "3" }, 17, 3],
  ] as const) {
    it(`gives ffprobe and ffmpeg started by the media tools ${label}`, async () => {
      const tools = new SystemMediaTools(loadConfig(env).media);
      const fifo = path.join(dir, `fifo-${nice}-${process.pid}.mp4`);
      execFileSync("mkfifo", [fifo]);
      const seen = async (tool: string) =>
        waitFor(() =>
          processesWith(fifo).find((entry) => entry.args[0]?.endsWith(tool) && entry.args.includes(`file:${fifo}`)),
        );
      try {
        const stopProbe = new AbortController();
        const probing = tools.probe(fifo, { signal: stopProbe.signal }).catch((error: Error) => error);
        const ffprobe = await seen("ffprobe");
        expect(ffprobe.nice).toBe(Math.min(19, os.getPriority() + nice));
        stopProbe.abort();
        expect(await probing).toMatchObject({ kind: "aborted" });

        const out = path.join(dir, `remux-${nice}.mp4`);
        const stopRemux = new AbortController();
        const remuxing = tools
          .remuxToMp4(fifo, out, { signal: stopRemux.signal, timeoutMs: 120_000 })
          .catch((error: Error) => error);
        const ffmpeg = await seen("ffmpeg");
        expect(ffmpeg.nice).toBe(Math.min(19, os.getPriority() + nice));
        expect(ffmpeg.args.slice(1, 3)).toEqual(["-filter_threads", String(threads)]);
        expect(ffmpeg.args[ffmpeg.args.indexOf("-i") - 2]).toBe("-threads");
        expect(ffmpeg.args[ffmpeg.args.indexOf("-i") - 1]).toBe(String(threads));
        expect(ffmpeg.args.slice(-3)).toEqual(["-threads", String(threads), `file:${out}`]);
        stopRemux.abort();
        expect(await remuxing).toMatchObject({ kind: "aborted" });
      } finally {
        await tools.close();
        fs.rmSync(fifo, { force: true });
      }
    });
  }

  it("puts libvips' worker threads (the photo renditions) at the media priority, with the configured count", async () => {
    const photo = path.join(dir, "photo.jpg");
    await sharp({ create: { width: 3000, height: 2000, channels: 3, background: "#4080c0" } })
      .jpeg()
      .toFile(photo);
    const base = os.getPriority(); // nice -n is relative to the server's own priority
    const libvipsThreads = () =>
      fs
        .readdirSync("/proc/self/task")
        .map((tid) => fs.readFileSync(`/proc/self/task/${tid}/stat`, "utf8"))
        .filter((stat) => stat.includes("(libvips worker)"))
        .map((stat) => Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]));
    for (const [env, nice, threads] of [
      [{}, 10, Math.max(1, Math.floor(os.availableParallelism() / 2))],
      [{ DAMS_MEDIA_NICE: "17", DAMS_MEDIA_THREADS: "3" }, 17, 3],
    ] as const) {
      const tools = new SystemMediaTools(loadConfig(env).media);
      expect(sharp.concurrency()).toBe(threads);
      await tools.imageDerivatives(photo, fs.mkdtempSync(path.join(dir, "renditions-")));
      const priorities = libvipsThreads();
      expect(priorities.length).toBeGreaterThan(0);
      expect(new Set(priorities)).toEqual(new Set([Math.min(19, base + nice)]));
      await tools.close();
    }
  });

  it("runs ffmpeg at the configured priority with its threads bounded for decoder, filters and encoder", async () => {
    const out = path.join(dir, `limits-${process.pid}.mp4`);
    const stop = new AbortController();
    const run = runTool(
      "ffmpeg",
      ["-y", "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=25", "-t", "60", "-c:v", "libx264", out],
      { timeoutMs: 120_000, memoryBytes: 2 * 1024 ** 3, nice: 12, threads: 1, signal: stop.signal },
    ).catch(() => {});
    const [ffmpeg] = await waitFor(() => {
      const found = processesWith(out).filter((entry) => entry.args[0]?.endsWith("ffmpeg"));
      return found.length > 0 ? found : undefined;
    });
    expect(ffmpeg!.nice).toBe(Math.min(19, os.getPriority() + 12));
    const args = ffmpeg!.args;
    expect(args.slice(1, 3)).toEqual(["-filter_threads", "1"]);
    expect(args[args.indexOf("-i") - 2]).toBe("-threads");
    expect(args.slice(-3)).toEqual(["-threads", "1", out]);
    stop.abort();
    await run;
  });

  it("runs the long-lived exiftool at the configured priority", async () => {
    const exiftool = new ExiftoolProcess({ nice: 15 }, 60_000);
    const marker = path.join(dir, `marker-${process.pid}.jpg`);
    fs.copyFileSync(
      path.resolve(import.meta.dirname, "../../../../shared/corpus/exif-samples/jpg/Canon_40D.jpg"),
      marker,
    );
    await exiftool.run(["-json", marker], { timeoutMs: 60_000 });
    const perl = processesWith("-stay_open").filter((entry) => entry.args.some((arg) => arg.endsWith("exiftool")));
    expect(perl.map((entry) => entry.nice)).toContain(Math.min(19, os.getPriority() + 15));
    await exiftool.close();
  });
});
