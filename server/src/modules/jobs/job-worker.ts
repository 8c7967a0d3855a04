import { randomBytes } from "node:crypto";
import os from "node:os";
import type { JobsConfig } from "../../config.js";
import type { ClaimedJob, JobQueue } from "./job-queue.js";
import {
  type JobAbortCause,
  JobAbortedError,
  type JobContext,
  type JobDefinition,
  type JobResult,
  PermanentJobError,
} from "./job-types.js";
import { LOST_WORKER_REASON } from "./jobs.repository.js";

export const DEFAULT_TIMEOUT_MS = 10 * 60_000;

/** The part of pino (Fastify's logger) the worker uses. */
export interface JobLogger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

const silentLogger: JobLogger = { info() {}, warn() {}, error() {} };

/** How often a running worker writes its heartbeat (the task monitor's "last seen"). */
export const HEARTBEAT_MS = 5_000;

/** Where a worker reports that it is alive (JobsMonitor); tests may leave it out. */
export interface WorkerHeartbeat {
  beat(worker: { id: string; concurrency: number; running: number; startedAt: string }): Promise<void>;
  stopped(workerId: string): Promise<void>;
}

export type WorkerSettings = Pick<
  JobsConfig,
  "workers" | "pollIntervalMs" | "leaseMs" | "progressIntervalMs" | "stopTimeoutMs" | "abortGraceMs"
>;

interface RunningJob {
  claimed: ClaimedJob;
  controller: AbortController;
  /** Settles when the attempt's outcome is written (or given up). */
  done: Promise<void>;
  /** Stops the heartbeat, timeout and progress timers. */
  stopTimers(): void;
  /** When the lease runs out unless renewed (by this process's clock, measured from before each renewal). */
  leaseExpiresAt: number;
}

type Settled = { kind: "returned"; result: JobResult } | { kind: "threw"; error: unknown } | { kind: "abandoned" };

/**
 * Runs registered job definitions: claims due jobs (up to `workers` at once),
 * keeps their leases alive, enforces timeouts, passes cancels on through the
 * AbortSignal, and writes each attempt's outcome through the JobQueue.
 */
export class JobWorker {
  readonly id = `${os.hostname()}:${process.pid}:${randomBytes(3).toString("hex")}`;
  // biome-ignore lint/suspicious/noExplicitAny: the registry holds definitions of every payload type.
  readonly #definitions = new Map<string, JobDefinition<any>>();
  readonly #running = new Map<string, RunningJob>();
  #state: "idle" | "running" | "stopping" | "stopped" = "idle";
  #loop: Promise<void> | undefined;
  #wakePending = false;
  #wakeUp: (() => void) | undefined;
  #lastSettle = 0;
  #lastBeat = 0;
  #startedAt = "";
  #claimPasses = 0;
  #stopping: Promise<void> | undefined;
  #unsubscribe: (() => void)[] = [];
  readonly #recurring: { enqueue: () => Promise<string>; everyMs: number }[] = [];

  constructor(
    private readonly queue: JobQueue,
    private readonly settings: WorkerSettings,
    private readonly logger: JobLogger = silentLogger,
    private readonly heartbeat?: WorkerHeartbeat,
  ) {}

  /** Adds a definition; possible before and after start. Names are unique. */
  register<Payload>(definition: JobDefinition<Payload>): void {
    if (this.#definitions.has(definition.name)) throw new Error(`job ${definition.name} is registered twice`);
    this.#definitions.set(definition.name, definition);
    this.#wake();
  }

  /**
   * Registers a job that runs every `everyMs` while this worker runs: the
   * worker enqueues it at start and then on a timer, with a dedupe key, so
   * several worker processes never pile up more than one queued or running
   * copy. The timer only triggers; the job itself is durable like any other.
   */
  every<Payload>(definition: JobDefinition<Payload>, everyMs: number, payload: Payload): void {
    this.register(definition);
    this.#recurring.push({
      enqueue: () => this.queue.enqueue(definition, payload, { dedupeKey: "recurring" }),
      everyMs,
    });
  }

  get definitions(): string[] {
    return [...this.#definitions.keys()];
  }

  /** The registered definition of `name` (its attempts are written on enqueue); throws when there is none. */
  definition(name: string): JobDefinition<unknown> {
    const definition = this.#definitions.get(name);
    if (!definition) throw new Error(`no handler is registered for job ${name}`);
    return definition;
  }

  get runningJobs(): number {
    return this.#running.size;
  }

  /** How many times the worker has looked for due jobs (for metrics and tests). */
  get claimPasses(): number {
    return this.#claimPasses;
  }

  get started(): boolean {
    return this.#state === "running";
  }

  /** Starts claiming; does nothing when the configured concurrency is 0. */
  start(): void {
    if (this.#state !== "idle" || this.settings.workers === 0) return;
    this.#state = "running";
    this.#startedAt = new Date().toISOString();
    this.#unsubscribe = [
      this.queue.onEnqueued(() => this.#wake()),
      this.queue.onCancelRequested((jobId) => this.#abort(jobId, "cancelled")),
    ];
    this.#loop = this.#run();
    for (const recurring of this.#recurring) {
      const enqueue = () =>
        void recurring
          .enqueue()
          .catch((error: unknown) => this.logger.error({ err: error }, "could not enqueue a recurring job"));
      enqueue();
      const timer = setInterval(enqueue, recurring.everyMs);
      timer.unref();
      this.#unsubscribe.push(() => clearInterval(timer));
    }
    this.logger.info({ worker: this.id, concurrency: this.settings.workers }, "job worker started");
  }

  /**
   * Stops claiming, waits up to stopTimeoutMs for running jobs, then releases
   * the leases of the rest (they run again elsewhere) and aborts their signals.
   */
  stop(): Promise<void> {
    if (this.#state === "idle") this.#state = "stopped";
    if (this.#state === "running") this.#stopping = this.#stop();
    return this.#stopping ?? Promise.resolve();
  }

  async #stop(): Promise<void> {
    this.#state = "stopping";
    for (const unsubscribe of this.#unsubscribe) unsubscribe();
    this.#wake();
    await this.#loop;
    const finished = Promise.all([...this.#running.values()].map((running) => running.done));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      finished,
      new Promise((resolve) => (timer = setTimeout(resolve, this.settings.stopTimeoutMs))),
    ]);
    clearTimeout(timer);
    for (const running of [...this.#running.values()]) {
      running.stopTimers();
      this.#running.delete(running.claimed.job.id);
      const released = await this.queue.release(running.claimed.lease).catch(() => false);
      running.controller.abort(new JobAbortedError("shutdown"));
      this.logger.warn({ jobId: running.claimed.job.id, released }, "job left running at stop: lease released");
    }
    this.#state = "stopped";
    await this.heartbeat?.stopped(this.id).catch(() => undefined);
    this.logger.info({ worker: this.id }, "job worker stopped");
  }

  #wake(): void {
    this.#wakePending = true;
    this.#wakeUp?.();
  }

  async #sleep(milliseconds: number): Promise<void> {
    if (this.#wakePending) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, milliseconds);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.#wakeUp = done;
    });
    this.#wakeUp = undefined;
  }

  async #run(): Promise<void> {
    while (this.#state === "running") {
      this.#wakePending = false;
      try {
        if (Date.now() - this.#lastSettle >= this.settings.pollIntervalMs) {
          this.#lastSettle = Date.now();
          const { dead } = await this.queue.settleExpired();
          for (const job of dead) await this.#tellDead(job.name, job.payload, job.lastError ?? LOST_WORKER_REASON);
        }
        if (this.heartbeat && Date.now() - this.#lastBeat >= HEARTBEAT_MS) {
          this.#lastBeat = Date.now();
          await this.heartbeat
            .beat({
              id: this.id,
              concurrency: this.settings.workers,
              running: this.#running.size,
              startedAt: this.#startedAt,
            })
            .catch((error: unknown) => this.logger.warn({ err: error }, "could not write the worker's heartbeat"));
        }
        const free = this.settings.workers - this.#running.size;
        if (free > 0 && this.#definitions.size > 0) {
          const claimed = await this.queue.claim(this.definitions, free, this.id);
          for (const job of claimed) this.#start(job);
        }
        this.#claimPasses += 1;
      } catch (error) {
        this.logger.error({ err: error }, "claiming jobs failed; trying again");
      }
      if (this.#state !== "running") break;
      await this.#sleep(this.settings.pollIntervalMs);
    }
  }

  #abort(jobId: string, cause: JobAbortCause): void {
    const running = this.#running.get(jobId);
    if (running && !running.controller.signal.aborted) running.controller.abort(new JobAbortedError(cause));
  }

  #start(claimed: ClaimedJob): void {
    const { job } = claimed;
    const definition = this.#definitions.get(job.name);
    const controller = new AbortController();
    const timers: NodeJS.Timeout[] = [];
    const stopTimers = () => {
      for (const timer of timers) clearTimeout(timer);
    };
    const running: RunningJob = {
      claimed,
      controller,
      done: Promise.resolve(),
      stopTimers,
      leaseExpiresAt: Date.parse(job.leaseExpiresAt ?? "") || Date.now() + this.settings.leaseMs,
    };
    this.#running.set(job.id, running);

    const timeoutMs = definition?.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    timers.push(setTimeout(() => this.#abort(job.id, "timeout"), timeoutMs));
    timers.push(setInterval(() => void this.#heartbeat(running), Math.max(100, Math.floor(this.settings.leaseMs / 3))));
    const context: JobContext = {
      jobId: job.id,
      attempt: job.attempts,
      signal: controller.signal,
      progress: this.#progressReporter(running, timers),
    };

    running.done = this.#attempt(definition, job.payload, context, controller.signal)
      .then((settled) => this.#record(running, settled, timeoutMs))
      .catch((error: unknown) => this.logger.error({ err: error, jobId: job.id }, "recording a job outcome failed"))
      .finally(() => {
        stopTimers();
        if (this.#running.get(job.id) === running) this.#running.delete(job.id);
        this.#wake();
      });
  }

  /**
   * Runs the handler. When the signal aborts, the handler has abortGraceMs to
   * return; a handler that ignores its signal is then abandoned, so a stuck
   * job cannot hold its slot for ever.
   */
  async #attempt(
    // biome-ignore lint/suspicious/noExplicitAny: see #definitions.
    definition: JobDefinition<any> | undefined,
    payload: unknown,
    context: JobContext,
    signal: AbortSignal,
  ): Promise<Settled> {
    if (!definition) return { kind: "threw", error: new Error("no handler is registered for this job") };
    const handler = Promise.resolve()
      .then(() => definition.run(payload, context))
      .then(
        (result): Settled => ({ kind: "returned", result: result ?? { outcome: "succeeded" } }),
        (error: unknown): Settled => ({ kind: "threw", error }),
      );
    let graceTimer: NodeJS.Timeout | undefined;
    const abandoned = new Promise<Settled>((resolve) => {
      const giveUp = () => {
        graceTimer = setTimeout(() => resolve({ kind: "abandoned" }), this.settings.abortGraceMs);
      };
      if (signal.aborted) giveUp();
      else signal.addEventListener("abort", giveUp, { once: true });
    });
    const settled = await Promise.race([handler, abandoned]);
    clearTimeout(graceTimer);
    return settled;
  }

  async #record(running: RunningJob, settled: Settled, timeoutMs: number): Promise<void> {
    const { claimed, controller } = running;
    running.stopTimers();
    const cause = controller.signal.aborted ? (controller.signal.reason as JobAbortedError).abortCause : undefined;
    if (cause === "shutdown" || cause === "lease-lost") return; // no longer ours to write
    // Once the signal has aborted, its cause decides, even if the handler then returned normally.
    let state: string | undefined;
    const result = settled.kind === "returned" ? settled.result : undefined;
    if (cause === "cancelled") state = await this.queue.finishCancelled(claimed.lease);
    else if (cause === "timeout") state = await this.queue.fail(claimed, new Error(`timed out after ${timeoutMs} ms`));
    else if (result?.outcome === "failed")
      state = await this.queue.fail(
        claimed,
        result.retry ? new Error(result.reason) : new PermanentJobError(result.reason),
        result.delayMs,
      );
    else if (result) state = await this.queue.succeed(claimed.lease);
    else state = await this.queue.fail(claimed, settled.kind === "threw" ? settled.error : new Error("abandoned"));
    const error = settled.kind === "threw" ? settled.error : undefined;
    const reason = result && result.outcome !== "succeeded" ? result.reason : undefined;
    if (state === "dead") {
      const why =
        reason ??
        (error instanceof Error ? error.message : cause === "timeout" ? `timed out after ${timeoutMs} ms` : "failed");
      await this.#tellDead(claimed.job.name, claimed.job.payload, why);
    }
    this.logger.info(
      { jobId: claimed.job.id, name: claimed.job.name, attempt: claimed.job.attempts, state, reason, err: error },
      !state
        ? "job outcome not recorded: its lease was lost"
        : result?.outcome === "skipped" && state === "succeeded"
          ? "job skipped"
          : `job ${state}`,
    );
  }

  /** A dead job's definition learns it (onDead), so what the job works on shows it; its failure is logged. */
  async #tellDead(name: string, payload: unknown, reason: string): Promise<void> {
    const definition = this.#definitions.get(name);
    if (!definition?.onDead) return;
    try {
      await definition.onDead(payload, reason);
    } catch (error) {
      this.logger.warn({ err: error, name }, "telling a dead job's owner failed");
    }
  }

  async #heartbeat(running: RunningJob): Promise<void> {
    const sent = Date.now();
    try {
      const renewed = await this.queue.renew(running.claimed.lease);
      if (renewed === "ok" || renewed === "cancel") running.leaseExpiresAt = sent + this.settings.leaseMs;
      if (renewed === "lost") this.#abortRunning(running, "lease-lost");
      if (renewed === "cancel") this.#abortRunning(running, "cancelled");
    } catch (error) {
      this.logger.warn({ err: error, jobId: running.claimed.job.id }, "renewing a job lease failed");
      // Unreachable database: once the lease has run out, another worker may run the job; stop this copy.
      if (Date.now() >= running.leaseExpiresAt) this.#abortRunning(running, "lease-lost");
    }
  }

  #abortRunning(running: RunningJob, cause: JobAbortCause): void {
    if (!running.controller.signal.aborted) running.controller.abort(new JobAbortedError(cause));
  }

  /** At most one progress write per progressIntervalMs; the last value is written when the interval ends. */
  #progressReporter(running: RunningJob, timers: NodeJS.Timeout[]): (percent: number) => Promise<void> {
    let lastWrite = 0;
    let pending: number | undefined;
    let trailing: NodeJS.Timeout | undefined;
    const write = async () => {
      trailing = undefined;
      if (pending === undefined) return;
      const value = pending;
      pending = undefined;
      lastWrite = Date.now();
      await this.queue
        .saveProgress(running.claimed.lease, value)
        .catch((error: unknown) => this.logger.warn({ err: error }, "saving job progress failed"));
    };
    return async (percent) => {
      pending = Math.max(0, Math.min(100, Math.round(Number.isFinite(percent) ? percent : 0)));
      const wait = lastWrite + this.settings.progressIntervalMs - Date.now();
      if (wait <= 0) return write();
      if (!trailing) {
        trailing = setTimeout(() => void write(), wait);
        timers.push(trailing);
      }
    };
  }
}
