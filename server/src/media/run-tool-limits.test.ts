import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../config.js";
import { ExiftoolProcess } from "./exiftool-process.js";
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
    expect(ffmpeg!.nice).toBe(12);
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
    expect(perl.map((entry) => entry.nice)).toContain(15);
    await exiftool.close();
  });
});
