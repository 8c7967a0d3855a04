import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { errorMessage, MediaError } from "./media-error.js";
import { diesWithParent, limitedCommand, type ToolLimits } from "./run-tool.js";

/**
 * One exiftool kept running (`-stay_open True -@ -`, the way exiftool is
 * meant to serve many files): a Perl start-up costs 100–300 ms, more than
 * reading a photo's metadata, so the photo job asks this one process instead
 * of starting exiftool per file. Requests go one at a time, each an argument
 * list ended by `-execute<n>`, its answer everything exiftool prints before
 * `{ready<n>}`. A request that passes its time limit or is cancelled kills
 * the process (SIGKILL); the next request starts a new one, as does one after
 * a crash. The process stops after `idleMs` without requests, on `close()`,
 * and when the dams process dies however it ends (the parent-death signal:
 * exiftool itself waits for ever at the end of its input). It runs under the same address-space
 * limit and priority as ffmpeg (prlimit, nice) and never keeps the Node
 * process alive.
 */
export class ExiftoolProcess {
  #child: ChildProcessWithoutNullStreams | undefined;
  #queue: Promise<unknown> = Promise.resolve();
  #counter = 0;
  #idle: NodeJS.Timeout | undefined;
  /** Answers of the request in flight, and what to do with them. */
  #pending: { marker: string; stdout: string; resolve: (out: string) => void; reject: (e: Error) => void } | undefined;
  #stderrTail = "";
  /** Processes started so far (a restart after a failure counts). */
  started = 0;

  /** The running exiftool's process id, if one runs. */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  constructor(
    private readonly limits: Pick<ToolLimits, "memoryBytes" | "nice">,
    private readonly idleMs = 60_000,
  ) {}

  /** Runs exiftool with `args` (one per line: no line breaks inside an argument) and returns its standard output. */
  run(args: string[], options: Pick<ToolLimits, "timeoutMs" | "signal">): Promise<string> {
    if (args.some((arg) => /[\r\n]/.test(arg)))
      return Promise.reject(new MediaError("refused", "an exiftool argument holds a line break"));
    const result = this.#queue.then(() => this.#request(args, options));
    this.#queue = result.catch(() => {});
    return result;
  }

  /** Ends the process (it finishes the request in flight, if any, first). */
  async close(): Promise<void> {
    clearTimeout(this.#idle);
    await this.#queue;
    const child = this.#child;
    if (!child) return;
    this.#child = undefined;
    child.ref(); // until it has gone
    await new Promise<void>((resolve) => {
      child.once("close", () => resolve());
      child.stdin.end("-stay_open\nFalse\n");
    });
  }

  #start(): ChildProcessWithoutNullStreams {
    const limited = limitedCommand("exiftool", ["-stay_open", "True", "-@", "-"], this.limits);
    const { command, args } = diesWithParent(limited.command, limited.args);
    const child = spawn(command, args);
    this.started++;
    child.unref();
    for (const stream of [child.stdin, child.stdout, child.stderr]) (stream as { unref?: () => void }).unref?.();
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => this.#onStdout(child, chunk));
    child.stderr.on("data", (chunk: Buffer) => {
      this.#stderrTail = (this.#stderrTail + chunk.toString("utf8")).slice(-2000);
    });
    child.on("error", (error: NodeJS.ErrnoException) => this.#fail(child, this.#startError(error)));
    child.on("close", (code) => {
      const detail = this.#stderrTail.trim().split("\n").at(-1);
      this.#fail(
        child,
        new MediaError("tool_failed", `exiftool stopped (exit code ${code})${detail ? `: ${detail}` : ""}`),
      );
    });
    child.stdin.on("error", () => {}); // a dead process: its close event reports it
    return child;
  }

  #startError(error: NodeJS.ErrnoException): MediaError {
    return error.code === "ENOENT"
      ? new MediaError("tool_missing", "exiftool is not installed", { cause: error })
      : new MediaError("tool_failed", `exiftool could not start: ${errorMessage(error)}`, { cause: error });
  }

  #onStdout(child: ChildProcessWithoutNullStreams, chunk: string): void {
    const pending = this.#pending;
    if (!pending || child !== this.#child) return;
    pending.stdout += chunk;
    const end = pending.stdout.indexOf(pending.marker);
    if (end === -1) return;
    this.#pending = undefined;
    pending.resolve(pending.stdout.slice(0, end));
  }

  /** The process ended or failed: its request in flight fails, the next request starts another. */
  #fail(child: ChildProcessWithoutNullStreams, error: MediaError): void {
    if (child !== this.#child) return;
    this.#child = undefined;
    const pending = this.#pending;
    this.#pending = undefined;
    pending?.reject(error);
  }

  #request(args: string[], options: Pick<ToolLimits, "timeoutMs" | "signal">): Promise<string> {
    const { signal, timeoutMs } = options;
    if (signal?.aborted) return Promise.reject(new MediaError("aborted", "exiftool was cancelled before it started"));
    clearTimeout(this.#idle);
    this.#child ??= this.#start();
    const child = this.#child;
    const number = ++this.#counter;
    this.#stderrTail = "";
    return new Promise<string>((resolve, reject) => {
      const stop = (error: MediaError) => {
        if (this.#pending?.marker !== marker) return;
        this.#fail(child, error);
        child.kill("SIGKILL");
      };
      const marker = `{ready${number}}`;
      const timer = setTimeout(
        () =>
          stop(
            new MediaError("timeout", `exiftool took longer than ${Math.round(timeoutMs / 1000)} s and was stopped`),
          ),
        timeoutMs,
      );
      const onAbort = () => stop(new MediaError("aborted", "exiftool was cancelled"));
      signal?.addEventListener("abort", onAbort, { once: true });
      const settle = () => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        this.#idle = setTimeout(() => void this.close(), this.idleMs);
        this.#idle.unref();
      };
      this.#pending = {
        marker,
        stdout: "",
        resolve: (out) => {
          settle();
          resolve(out);
        },
        reject: (error) => {
          settle();
          reject(error);
        },
      };
      child.stdin.write(`${[...args, `-execute${number}`].join("\n")}\n`);
    });
  }
}
