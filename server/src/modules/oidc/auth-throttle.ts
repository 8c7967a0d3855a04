import { randomUUID } from "node:crypto";
import type { Db } from "../../db/database.js";
import { AppError } from "../../http/errors.js";
import type { Clock } from "./oidc-adapter.js";

export interface ThrottleRule {
  limit: number;
  windowSeconds: number;
}

export const THROTTLE_RULES = {
  /** Failed logins for one username. */
  loginAccount: { limit: 5, windowSeconds: 15 * 60 },
  /** Failed logins from one address, whatever the username. */
  loginAddress: { limit: 20, windowSeconds: 15 * 60 },
  /** Registrations (attempts) from one address. */
  registerAddress: { limit: 10, windowSeconds: 60 * 60 },
} satisfies Record<string, ThrottleRule>;

export class TooManyAttempts extends AppError {
  constructor(readonly retryAfterSeconds: number) {
    super(429, "too_many_attempts", "too many attempts; try again later");
  }
}

/**
 * Counts events per key in a sliding window, in the database, so every
 * server process sees the same counts.
 */
export class AuthThrottle {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock = () => new Date(),
  ) {}

  /** Throws TooManyAttempts when `key` has reached the rule's limit in its window. */
  async check(key: string, rule: ThrottleRule): Promise<void> {
    const now = this.clock().getTime();
    const since = new Date(now - rule.windowSeconds * 1000).toISOString();
    const row = await this.db.kysely
      .selectFrom("auth_throttle")
      .select((eb) => [eb.fn.countAll<number>().as("count"), eb.fn.min("at").as("oldest")])
      .where("key", "=", key)
      .where("at", ">", since)
      .executeTakeFirstOrThrow();
    if (Number(row.count) < rule.limit || row.oldest === null) return;
    const freedAt = Date.parse(String(row.oldest)) + rule.windowSeconds * 1000;
    throw new TooManyAttempts(Math.max(1, Math.ceil((freedAt - now) / 1000)));
  }

  async record(key: string): Promise<void> {
    await this.db.kysely
      .insertInto("auth_throttle")
      .values({ id: randomUUID(), key, at: this.clock().toISOString() })
      .execute();
  }

  async reset(key: string): Promise<void> {
    await this.db.kysely.deleteFrom("auth_throttle").where("key", "=", key).execute();
  }

  /** Forgets events older than every window. */
  async sweep(): Promise<void> {
    const longest = Math.max(...Object.values(THROTTLE_RULES).map((rule) => rule.windowSeconds));
    const before = new Date(this.clock().getTime() - longest * 1000).toISOString();
    await this.db.kysely.deleteFrom("auth_throttle").where("at", "<", before).execute();
  }
}
