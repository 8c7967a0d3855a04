import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { readWithExiftool } from "./exiftool-fallback.js";
import { ExiftoolProcess } from "./exiftool-process.js";
import { DEFAULT_TOOL_LIMITS } from "./run-tool.js";

const corpus = path.resolve(import.meta.dirname, "../../../../shared/corpus/exif-samples/jpg");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dams-exiftool-"));
const exiftool = new ExiftoolProcess({ memoryBytes: DEFAULT_TOOL_LIMITS.memoryBytes });
afterAll(async () => {
  await exiftool.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("ExiftoolProcess (one exiftool -stay_open for many files)", () => {
  it("reads what a process per file reads, file after file, in one process", async () => {
    const names = ["Canon_40D.jpg", "Nikon_D70.jpg", "gps/DSCN0010.jpg", "Fujifilm_FinePix_E500.jpg"];
    // A name with spaces and Chinese characters, as uploads are called.
    const renamed = path.join(dir, "台风 现场 1.jpg");
    fs.copyFileSync(path.join(corpus, "Canon_40D.jpg"), renamed);
    const files = [...names.map((name) => path.join(corpus, name)), renamed];
    for (const file of files) {
      const alone = await readWithExiftool(file, DEFAULT_TOOL_LIMITS);
      expect(await readWithExiftool(file, DEFAULT_TOOL_LIMITS, exiftool), file).toEqual(alone);
    }
    expect((await readWithExiftool(renamed, DEFAULT_TOOL_LIMITS, exiftool)).cameraModel).toBe("Canon EOS 40D");
    // Side by side, as two job workers ask: answered one at a time, each its own.
    const both = await Promise.all(files.map((file) => readWithExiftool(file, DEFAULT_TOOL_LIMITS, exiftool)));
    expect(both.map((facts) => facts.cameraModel)).toEqual(
      await Promise.all(files.map(async (file) => (await readWithExiftool(file, DEFAULT_TOOL_LIMITS)).cameraModel)),
    );
    expect(exiftool.started).toBe(1);
  });

  it("stops a request past its time limit or cancelled, and answers the next one from a new process", async () => {
    const file = path.join(corpus, "Canon_40D.jpg");
    const before = exiftool.started;
    await expect(readWithExiftool(file, { timeoutMs: 1 }, exiftool)).rejects.toMatchObject({ kind: "timeout" });
    const controller = new AbortController();
    const cancelled = readWithExiftool(file, { ...DEFAULT_TOOL_LIMITS, signal: controller.signal }, exiftool);
    controller.abort();
    await expect(cancelled).rejects.toMatchObject({ kind: "aborted" });
    expect((await readWithExiftool(file, DEFAULT_TOOL_LIMITS, exiftool)).cameraModel).toBe("Canon EOS 40D");
    expect(exiftool.started).toBeGreaterThan(before);
  });

  it("ends with the process that started it, even one killed without closing it", async () => {
    // A dams process that reads one photo's metadata, says its exiftool's pid and kills itself (SIGKILL).
    const module = path.resolve(import.meta.dirname, "exiftool-process.ts");
    const script = `
      const { ExiftoolProcess } = await import(${JSON.stringify(module)});
      const exiftool = new ExiftoolProcess({});
      await exiftool.run(["-json", ${JSON.stringify(path.join(corpus, "Canon_40D.jpg"))}], { timeoutMs: 120000 });
      process.stdout.write(String(exiftool.pid) + "\\n", () => process.kill(process.pid, "SIGKILL"));`;
    const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script]);
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    await new Promise((resolve) => child.once("close", resolve));
    const pid = Number(out.trim());
    expect(pid, out).toBeGreaterThan(0);
    const alive = () => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    await vi.waitFor(() => expect(alive()).toBe(false), { timeout: 60_000, interval: 100 });
  });

  it("refuses an argument with a line break (it would split the request)", async () => {
    await expect(exiftool.run(["-json", "a\nb.jpg"], DEFAULT_TOOL_LIMITS)).rejects.toMatchObject({ kind: "refused" });
  });
});
