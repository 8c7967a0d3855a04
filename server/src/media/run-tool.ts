import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { errorMessage, MediaError } from "./media-error.js";

/** The external programs this folder runs; nothing else is ever spawned. */
export type MediaTool = "ffmpeg" | "ffprobe" | "exiftool";

/** Limits every external media process runs under. */
export interface ToolLimits {
  /** Wall-clock limit; the process is killed (SIGKILL) when it passes. */
  timeoutMs: number;
  /** Address-space limit in bytes (prlimit --as), when prlimit is installed. */
  memoryBytes?: number;
  /** Cancels the run: the process is killed and the promise rejects with kind "aborted". */
  signal?: AbortSignal;
  /** Scheduling priority (`nice -n`, 0–19), so the tools yield the cores to the API. */
  nice?: number;
  /** ffmpeg's threads: each input's decoder, the filter graph and the encoder; 0 or unset: ffmpeg's choice. */
  threads?: number;
}

export const DEFAULT_TOOL_LIMITS: ToolLimits = { timeoutMs: 10 * 60_000, memoryBytes: 4 * 1024 ** 3 };

/** The limits with a job's own AbortSignal joined to theirs. */
export function limitsOf(options: { limits?: ToolLimits; signal?: AbortSignal }): ToolLimits {
  const limits = options.limits ?? DEFAULT_TOOL_LIMITS;
  const signals = [limits.signal, options.signal].filter((signal): signal is AbortSignal => signal !== undefined);
  return { ...limits, signal: signals.length > 1 ? AbortSignal.any(signals) : signals[0] };
}

/** A probe reads headers only: it gets at most a minute whatever the transcode limit is. */
export function probeLimits(limits: ToolLimits): ToolLimits {
  return { ...limits, timeoutMs: Math.min(limits.timeoutMs, 60_000) };
}

export interface RunToolOptions extends ToolLimits {
  /** Each complete line written to stdout (for `-progress pipe:1`); stdout is then not collected. */
  onStdoutLine?: (line: string) => void;
  /** Each chunk written to stdout (for raw PCM); stdout is then not collected. */
  onStdoutData?: (chunk: Buffer) => void;
  /** Collected stdout above this many bytes kills the process (ffprobe JSON is small). */
  maxStdoutBytes?: number;
}

export interface ToolResult {
  stdout: string;
  /** The last few kilobytes of stderr, for error reasons. */
  stderrTail: string;
}

const STDERR_TAIL_BYTES = 8 * 1024;

function findOnPath(command: string): string | undefined {
  for (const dir of (process.env.PATH ?? "/usr/bin:/bin").split(path.delimiter)) {
    const candidate = path.join(dir, command);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

let nicePath: string | null | undefined;
/** nice (coreutils) execs the tool too, so the pid we kill stays the tool's. */
function nice(): string | undefined {
  if (nicePath === undefined) nicePath = findOnPath("nice") ?? null;
  return nicePath ?? undefined;
}

/**
 * The command line of a tool under the limits: prlimit (address space), then
 * nice (priority), each exec'ing the next; ffmpeg with its thread bound (before
 * each input, for the filters, and before the output, which every ffmpeg
 * command here ends with).
 */
export function limitedCommand(
  tool: MediaTool,
  args: string[],
  limits: Pick<ToolLimits, "memoryBytes" | "nice" | "threads">,
): { command: string; args: string[]; limited: boolean } {
  let toolArgs = args;
  if (tool === "ffmpeg" && limits.threads) {
    const threads = String(limits.threads);
    toolArgs = ["-filter_threads", threads];
    args.forEach((arg, index) => {
      if (arg === "-i" || index === args.length - 1) toolArgs.push("-threads", threads);
      toolArgs.push(arg);
    });
  }
  let chain: string[] = [tool, ...toolArgs];
  const niceCommand = limits.nice ? nice() : undefined;
  if (niceCommand) chain = [niceCommand, "-n", String(limits.nice), ...chain];
  const limiter = limits.memoryBytes ? prlimit() : undefined;
  if (limiter) chain = [limiter, `--as=${Math.floor(limits.memoryBytes ?? 0)}`, "--", ...chain];
  return { command: chain[0]!, args: chain.slice(1), limited: limiter !== undefined || niceCommand !== undefined };
}

let setprivPath: string | null | undefined;
/**
 * The command and arguments that run `command` so that it is killed when the process that started it dies:
 * util-linux's setpriv sets the parent-death signal (PR_SET_PDEATHSIG) and execs the rest of the chain. For a
 * tool that outlives a request (exiftool -stay_open ignores the end of its input and waits for ever): a dams
 * process killed or ended without closing it would leave it running. Without setpriv, the command as it is.
 */
export function diesWithParent(command: string, args: string[]): { command: string; args: string[] } {
  if (setprivPath === undefined) setprivPath = findOnPath("setpriv") ?? null;
  return setprivPath
    ? { command: setprivPath, args: ["--pdeathsig", "KILL", "--", command, ...args] }
    : { command, args };
}

let prlimitPath: string | null | undefined;
/** prlimit (util-linux) sets RLIMIT_AS and then execs the tool, so the pid we kill is the tool itself. */
export function prlimit(): string | undefined {
  if (prlimitPath === undefined) prlimitPath = findOnPath("prlimit") ?? null;
  return prlimitPath ?? undefined;
}

/** The last line of ffmpeg's stderr that says something, without the noise of progress lines. */
export function lastMeaningfulLine(stderr: string): string {
  const lines = stderr
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0 && !line.startsWith("frame=") && !line.startsWith("size="));
  return (lines.at(-1) ?? "").slice(0, 300);
}

/**
 * Runs ffmpeg or ffprobe without a shell, under a wall-clock timeout, an
 * AbortSignal and (where prlimit exists) an address-space limit. Resolves on
 * exit code 0; otherwise rejects with a MediaError whose reason quotes the
 * tool's last error line.
 */
export function runTool(tool: MediaTool, args: string[], options: RunToolOptions): Promise<ToolResult> {
  const { timeoutMs, signal, onStdoutLine, onStdoutData, maxStdoutBytes = 16 * 1024 * 1024 } = options;
  if (signal?.aborted) return Promise.reject(new MediaError("aborted", `${tool} was cancelled before it started`));
  const { command, args: commandArgs, limited } = limitedCommand(tool, args, options);

  return new Promise<ToolResult>((resolve, reject) => {
    const child = spawn(command, commandArgs, { shell: false, stdio: ["ignore", "pipe", "pipe"] });
    const stdoutChunks: Buffer[] = [];
    let stdoutBytes = 0;
    let stderrTail = "";
    let lineBuffer = "";
    let failure: MediaError | undefined;
    let settled = false;

    const kill = (error: MediaError) => {
      failure ??= error;
      child.kill("SIGKILL");
    };
    const timer = setTimeout(
      () =>
        kill(new MediaError("timeout", `${tool} took longer than ${Math.round(timeoutMs / 1000)} s and was stopped`)),
      timeoutMs,
    );
    const onAbort = () => kill(new MediaError("aborted", `${tool} was cancelled`));
    signal?.addEventListener("abort", onAbort, { once: true });

    // A throwing callback must end this run, not the process (it runs in a stream event).
    const guarded = (callback: () => void) => {
      try {
        callback();
      } catch (error) {
        kill(new MediaError("tool_failed", `handling ${tool}'s output failed: ${errorMessage(error)}`));
      }
    };
    child.stdout.on("data", (chunk: Buffer) => {
      if (onStdoutData) return guarded(() => onStdoutData(chunk));
      if (onStdoutLine) {
        lineBuffer += chunk.toString("utf8");
        const lines = lineBuffer.split("\n");
        lineBuffer = lines.pop() ?? "";
        guarded(() => {
          for (const line of lines) onStdoutLine(line.trim());
        });
        return;
      }
      stdoutBytes += chunk.length;
      if (stdoutBytes > maxStdoutBytes)
        return kill(new MediaError("refused", `${tool} wrote more output than allowed`));
      stdoutChunks.push(chunk);
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderrTail = (stderrTail + chunk.toString("utf8")).slice(-STDERR_TAIL_BYTES);
    });

    const finish = (error: MediaError | undefined) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      if (error) reject(error);
      else resolve({ stdout: Buffer.concat(stdoutChunks).toString("utf8"), stderrTail });
    };
    child.on("error", (error: NodeJS.ErrnoException) => {
      const missing = error.code === "ENOENT";
      finish(
        new MediaError(
          missing ? "tool_missing" : "tool_failed",
          missing ? `${tool} is not installed` : `${tool} could not start: ${error.message}`,
          { cause: error },
        ),
      );
    });
    child.on("close", (code, killedBy) => {
      if (onStdoutLine && lineBuffer.trim()) guarded(() => onStdoutLine(lineBuffer.trim()));
      if (failure) return finish(failure);
      if (code === 0) return finish(undefined);
      // prlimit and nice run the tool by exec: a missing tool shows as its exit code 127.
      if (limited && code === 127 && /failed to execute|No such file or directory/i.test(stderrTail))
        return finish(new MediaError("tool_missing", `${tool} is not installed`));
      if (/not on whitelist/i.test(stderrTail))
        return finish(
          new MediaError(
            "refused",
            `${tool} refused the input: it is a playlist or another format that opens other files`,
          ),
        );
      const detail = lastMeaningfulLine(stderrTail);
      // How an exhausted RLIMIT_AS shows: failed mmap of a library, malloc, or thread creation (EAGAIN).
      const outOfMemory =
        /Cannot allocate memory|out of memory|failed to map segment|Resource temporarily unavailable/i.test(
          stderrTail,
        ) || killedBy === "SIGSEGV";
      finish(
        new MediaError(
          outOfMemory ? "too_large" : "tool_failed",
          outOfMemory
            ? `${tool} ran out of its memory allowance`
            : `${tool} failed (${killedBy ?? `exit code ${code}`})${detail ? `: ${detail}` : ""}`,
        ),
      );
    });
  });
}
