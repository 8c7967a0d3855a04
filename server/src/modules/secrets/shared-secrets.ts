import { createHash } from "node:crypto";
import { ConfigError } from "../../config.js";
import type { Db } from "../../db/database.js";
import type { SharedSecretsTable } from "../../db/schema.js";

/** One key every node of a deployment must hold the same. */
export interface SecretSpec {
  /** Its row in `shared_secrets`, e.g. `media-urls.key`. */
  name: string;
  /** The variables that configure it, for messages: `DAMS_MEDIA_URL_KEY or DAMS_MEDIA_URL_KEY_FILE`. */
  variable: string;
  /** The value this node is configured with, if any. */
  configured?: string;
  /** What an earlier version kept in the data directory: imported into the database once, then unused. */
  legacy?: () => string | undefined;
  /** Makes a new value, once for the whole database. */
  generate(): string | Promise<string>;
}

export interface SecretLogger {
  warn(object: object, message: string): void;
}

/** SHA-256 (hex) of a secret: recorded so nodes can compare what they use without storing it. */
export function fingerprintOf(value: string): string {
  return createHash("sha256").update(value).digest("hex");
}

function short(fingerprint: string): string {
  return fingerprint.slice(0, 12);
}

/**
 * The keys a node signs and encrypts with, the same on every node of one
 * database: the configured value (recorded by its fingerprint only), else the
 * one stored in the database, else one generated (or imported from the data
 * directory of an earlier version) and stored for all. Never a key of its own:
 * a node without a key the others are configured with, or configured with
 * another one, refuses to start with a message saying which variable.
 */
export class SharedSecrets {
  constructor(
    private readonly db: Db,
    private readonly log?: SecretLogger,
  ) {}

  async resolve(spec: SecretSpec): Promise<string> {
    if (spec.configured !== undefined) return this.#useConfigured(spec, spec.configured);
    const row = await this.#find(spec.name);
    if (row) return this.#storedValue(spec, row);
    const legacy = spec.legacy?.();
    const value = legacy ?? (await spec.generate());
    await this.#insertIfAbsent({ name: spec.name, value, source: legacy === undefined ? "generated" : "imported" });
    // Another node starting at the same moment may have stored its value first: everyone takes the stored one.
    return this.#storedValue(spec, (await this.#find(spec.name))!);
  }

  /** Names, sources and fingerprints (never values), for `dams secrets list`. */
  list(): Promise<Pick<SharedSecretsTable, "name" | "source" | "fingerprint" | "updated_at">[]> {
    return this.db.kysely
      .selectFrom("shared_secrets")
      .select(["name", "source", "fingerprint", "updated_at"])
      .orderBy("name")
      .execute();
  }

  /** Forgets a secret (`dams secrets reset`): the next node to start records or makes it anew. */
  async reset(name: string): Promise<boolean> {
    const result = await this.db.kysely.deleteFrom("shared_secrets").where("name", "=", name).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  #storedValue(spec: SecretSpec, row: SharedSecretsTable): string {
    if (row.value !== null) return row.value;
    throw new ConfigError(
      `${spec.variable} is set on the other nodes of this database (fingerprint ${short(row.fingerprint)}) but not on this one. ` +
        "Set it here too, to the same value: a node signing with a key of its own would refuse the others' tokens and URLs.",
    );
  }

  async #useConfigured(spec: SecretSpec, value: string): Promise<string> {
    const fingerprint = fingerprintOf(value);
    let row = await this.#find(spec.name);
    if (!row) {
      await this.#insertIfAbsent({ name: spec.name, value: null, source: "configured", fingerprint });
      row = (await this.#find(spec.name))!;
    }
    if (row.fingerprint !== fingerprint && row.value === null) {
      throw new ConfigError(
        `${spec.variable} differs from the value the other nodes of this database use (fingerprint ${short(row.fingerprint)}, ` +
          `here ${short(fingerprint)}). Give every node the same value; to change it on purpose, stop every node and run ` +
          `\`dams secrets reset ${spec.name}\` first.`,
      );
    }
    if (row.value !== null || row.source !== "configured") {
      if (row.fingerprint !== fingerprint) {
        this.log?.warn(
          { secret: spec.name },
          `${spec.variable} replaces the ${spec.name} stored in the database: nodes without it will now refuse to start`,
        );
      }
      // Configured from now on: the database keeps only the fingerprint.
      await this.db.kysely
        .updateTable("shared_secrets")
        .set({ value: null, fingerprint, source: "configured", updated_at: new Date().toISOString() })
        .where("name", "=", spec.name)
        .execute();
    }
    return value;
  }

  #find(name: string): Promise<SharedSecretsTable | undefined> {
    return this.db.kysely.selectFrom("shared_secrets").selectAll().where("name", "=", name).executeTakeFirst();
  }

  async #insertIfAbsent(row: {
    name: string;
    value: string | null;
    source: SharedSecretsTable["source"];
    fingerprint?: string;
  }): Promise<void> {
    const now = new Date().toISOString();
    await this.db.kysely
      .insertInto("shared_secrets")
      .values({
        name: row.name,
        value: row.value,
        fingerprint: row.fingerprint ?? fingerprintOf(row.value ?? ""),
        source: row.source,
        created_at: now,
        updated_at: now,
      })
      .onConflict((conflict) => conflict.column("name").doNothing())
      .execute();
  }
}
