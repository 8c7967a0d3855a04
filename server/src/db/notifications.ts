import { type Kysely, sql } from "kysely";
import pg from "pg";
import type { DatabaseConfig } from "../config.js";
import type { Database } from "./schema.js";

/**
 * What one process tells the others through the database, so that no state
 * has to stay in a process: a job was enqueued (idle workers wake), a cancel
 * was asked for (the worker running the job aborts it), an upload's lock is
 * wanted (its holder lets go), a cached entry changed (every copy is dropped),
 * a delivery changed state (open publish monitors refresh).
 */
export type Topic = "jobs.enqueued" | "jobs.cancel" | "uploads.release" | "cache.invalidate" | "publishing.delivery";

export interface Notifications {
  /**
   * Tells every process on this database, this one included. Given a
   * transaction, the notice leaves when it commits and not at all when it
   * rolls back (PostgreSQL's NOTIFY semantics).
   */
  notify(topic: Topic, payload: string, transaction?: Kysely<Database>): Promise<void>;
  /** Calls `listener` with the payload of every notice on `topic`; returns the unsubscribe. */
  listen(topic: Topic, listener: (payload: string) => void): () => void;
  /**
   * Called when notices may have been missed (the connection that receives
   * them was lost and is back): listeners should catch up, e.g. poll for due
   * jobs or drop every cached entry. Returns the unsubscribe.
   */
  onGap(listener: () => void): () => void;
  /** False on SQLite: notices reach only this process (one node). */
  readonly crossProcess: boolean;
  close(): Promise<void>;
}

/** The one PostgreSQL channel; the payload is `<topic> <data>`. */
const CHANNEL = "dams_events";
/** NOTIFY refuses payloads of 8000 bytes and more. */
const MAX_PAYLOAD = 7900;
const RECONNECT_MIN_MS = 250;
const RECONNECT_MAX_MS = 5000;

type Listener = (payload: string) => void;

class Dispatcher {
  readonly #listeners = new Map<Topic, Set<Listener>>();
  readonly #gapListeners = new Set<() => void>();

  listen(topic: Topic, listener: Listener): () => void {
    const set = this.#listeners.get(topic) ?? new Set<Listener>();
    this.#listeners.set(topic, set);
    set.add(listener);
    return () => set.delete(listener);
  }

  onGap(listener: () => void): () => void {
    this.#gapListeners.add(listener);
    return () => this.#gapListeners.delete(listener);
  }

  get listening(): boolean {
    for (const set of this.#listeners.values()) if (set.size > 0) return true;
    return this.#gapListeners.size > 0;
  }

  deliver(topic: Topic, payload: string): void {
    for (const listener of [...(this.#listeners.get(topic) ?? [])]) {
      try {
        listener(payload);
      } catch (error) {
        process.emitWarning(`a listener of ${topic} failed: ${(error as Error).message}`);
      }
    }
  }

  gap(): void {
    for (const listener of [...this.#gapListeners]) listener();
  }
}

function checkPayload(topic: Topic, payload: string): string {
  const message = `${topic} ${payload}`;
  if (Buffer.byteLength(message) > MAX_PAYLOAD) throw new Error(`a ${topic} notice is too long (${message.length})`);
  return message;
}

/** SQLite: one node; notices go to this process's listeners, after the current turn of the event loop. */
class LocalNotifications implements Notifications {
  readonly crossProcess = false;
  readonly #dispatcher = new Dispatcher();

  async notify(topic: Topic, payload: string): Promise<void> {
    checkPayload(topic, payload);
    setImmediate(() => this.#dispatcher.deliver(topic, payload));
  }

  listen(topic: Topic, listener: Listener): () => void {
    return this.#dispatcher.listen(topic, listener);
  }

  onGap(listener: () => void): () => void {
    return this.#dispatcher.onGap(listener);
  }

  async close(): Promise<void> {}
}

/**
 * PostgreSQL: NOTIFY through the pool (or the caller's transaction), LISTEN on
 * one connection of its own, opened with the first listener and reopened with
 * a growing delay whenever it is lost (a restarted server); each reopening is
 * a gap.
 */
class PostgresNotifications implements Notifications {
  readonly crossProcess = true;
  readonly #dispatcher = new Dispatcher();
  #client: pg.Client | undefined;
  #connecting: Promise<void> | undefined;
  #retryTimer: NodeJS.Timeout | undefined;
  #retryDelay = RECONNECT_MIN_MS;
  #closed = false;

  constructor(
    private readonly url: string,
    private readonly kysely: () => Kysely<Database>,
  ) {}

  async notify(topic: Topic, payload: string, transaction?: Kysely<Database>): Promise<void> {
    const message = checkPayload(topic, payload);
    await sql`select pg_notify(${CHANNEL}, ${message})`.execute(transaction ?? this.kysely());
  }

  listen(topic: Topic, listener: Listener): () => void {
    const unsubscribe = this.#dispatcher.listen(topic, listener);
    this.#ensureConnected();
    return unsubscribe;
  }

  onGap(listener: () => void): () => void {
    const unsubscribe = this.#dispatcher.onGap(listener);
    this.#ensureConnected();
    return unsubscribe;
  }

  /** Resolves once the LISTEN connection is up (tests wait for it before notifying). */
  ready(): Promise<void> {
    this.#ensureConnected();
    return this.#connecting ?? Promise.resolve();
  }

  #ensureConnected(): void {
    if (this.#client || this.#connecting || this.#retryTimer || this.#closed) return;
    this.#connecting = this.#connect().finally(() => {
      this.#connecting = undefined;
    });
  }

  async #connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url, connectionTimeoutMillis: 5000, keepAlive: true });
    const lost = (error?: Error) => {
      if (this.#client !== client) return;
      this.#client = undefined;
      client.removeAllListeners("notification");
      client.end().catch(() => {});
      if (this.#closed) return;
      if (error) process.emitWarning(`the PostgreSQL connection for notifications was lost: ${error.message}`);
      this.#scheduleRetry();
    };
    client.on("error", lost);
    client.on("end", () => lost(new Error("connection ended")));
    try {
      await client.connect();
      await client.query(`listen ${CHANNEL}`);
    } catch {
      // Unreachable (a restarting server): try again after the delay.
      client.removeAllListeners();
      client.on("error", () => {});
      await client.end().catch(() => {});
      if (!this.#closed) this.#scheduleRetry();
      return;
    }
    if (this.#closed) {
      await client.end().catch(() => {});
      return;
    }
    this.#retryDelay = RECONNECT_MIN_MS;
    this.#client = client;
    client.on("notification", (message) => {
      if (message.channel !== CHANNEL || !message.payload) return;
      const space = message.payload.indexOf(" ");
      const topic = message.payload.slice(0, space) as Topic;
      this.#dispatcher.deliver(topic, message.payload.slice(space + 1));
    });
    // Whatever was sent while no connection listened is lost: tell the listeners to catch up.
    this.#dispatcher.gap();
  }

  #scheduleRetry(): void {
    if (this.#retryTimer || this.#closed) return;
    const delay = this.#retryDelay;
    this.#retryDelay = Math.min(RECONNECT_MAX_MS, this.#retryDelay * 2);
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = undefined;
      if (this.#dispatcher.listening) this.#ensureConnected();
    }, delay);
    this.#retryTimer.unref();
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#retryTimer);
    await this.#connecting;
    const client = this.#client;
    this.#client = undefined;
    await client?.end().catch(() => {});
  }
}

export function openNotifications(config: DatabaseConfig, kysely: () => Kysely<Database>): Notifications {
  return config.kind === "postgres" ? new PostgresNotifications(config.url, kysely) : new LocalNotifications();
}

/** Waits until a PostgreSQL LISTEN connection is up (a no-op on SQLite); for tests and start-up. */
export async function notificationsReady(notifications: Notifications): Promise<void> {
  if (notifications instanceof PostgresNotifications) await notifications.ready();
}
