import { randomUUID } from "node:crypto";
import type { Db } from "../../db/database.js";
import { Conflict, Invalid, NotFound } from "../../http/errors.js";
import { type AuditLog, auditChanges } from "../audit/audit-log.js";
import type { Actor } from "../auth/actor.js";
import { probeStore } from "../blobs/probe-store.js";
import type { CredentialsCipher } from "../channels/credentials-cipher.js";
import type { StorageRepository, TargetRecord } from "./storage.repository.js";
import type { TargetInput, TargetTestResult } from "./storage.schema.js";
import {
  BUILT_IN_TARGET,
  secretContext,
  storeOfTarget,
  type TargetStoreOptions,
  type TargetStores,
} from "./target-stores.js";

/** The libraries as the storage module sees them (the libraries module's LibrarySettingsService answers). */
export interface StorageLibraries {
  list(): Promise<{ id: string; name: string; bucketId: string | null }[]>;
  /** Throws NotFound for an unknown library. */
  get(libraryId: string): Promise<{ id: string; name: string; bucketId: string | null }>;
  setBucket(actor: Actor, libraryId: string, bucketId: string | null): Promise<void>;
}

export interface TargetView {
  id: string;
  name: string;
  kind: "local" | "s3";
  builtIn: boolean;
  isDefault: boolean;
  directory: string | null;
  endpoint: string | null;
  region: string | null;
  bucket: string | null;
  prefix: string | null;
  pathStyle: boolean | null;
  accessKeyId: string | null;
  secretSet: boolean;
  libraries: number;
  files: number | null;
  createTime: string | null;
  updateTime: string | null;
}

export interface StorageTargetsDependencies {
  db: Db;
  rows: StorageRepository;
  stores: TargetStores;
  storeOptions: TargetStoreOptions;
  cipher: CredentialsCipher;
  audit: AuditLog;
  libraries: () => StorageLibraries;
  clock?: () => Date;
}

/** The storage targets (/manage/setting/bucket): the built-in storage and the targets an administrator adds. */
export class StorageTargetsService {
  constructor(private readonly deps: StorageTargetsDependencies) {}

  async list(): Promise<TargetView[]> {
    const [targets, files, libraries] = await Promise.all([
      this.deps.rows.targets(),
      this.deps.rows.filesPerTarget(),
      this.deps.libraries().list(),
    ]);
    const defaultId = targets.find((target) => target.isDefault)?.id ?? BUILT_IN_TARGET;
    const librariesOf = (id: string) => libraries.filter((library) => (library.bucketId ?? defaultId) === id).length;
    const builtIn: TargetView = {
      id: BUILT_IN_TARGET,
      name: "",
      kind: this.deps.storeOptions.builtIn.kind,
      builtIn: true,
      isDefault: defaultId === BUILT_IN_TARGET,
      directory: null,
      endpoint: null,
      region: null,
      bucket: null,
      prefix: null,
      pathStyle: null,
      accessKeyId: null,
      secretSet: false,
      libraries: librariesOf(BUILT_IN_TARGET),
      files: null,
      createTime: null,
      updateTime: null,
    };
    return [builtIn, ...targets.map((target) => this.#view(target, librariesOf(target.id), files.get(target.id) ?? 0))];
  }

  async get(id: string): Promise<TargetView> {
    const view = (await this.list()).find((target) => target.id === id);
    if (!view) throw new NotFound(`storage target ${id} does not exist`, "target_not_found");
    return view;
  }

  /** The target libraries without one of their own use. */
  async defaultTargetId(): Promise<string> {
    return (await this.deps.rows.targets()).find((target) => target.isDefault)?.id ?? BUILT_IN_TARGET;
  }

  /** Throws 400 naming the field when no target has the id (the built-in one always exists). */
  async require(id: string, field = "targetId"): Promise<{ id: string; name: string }> {
    if (id === BUILT_IN_TARGET) return { id, name: "" };
    const target = await this.deps.rows.target(id);
    if (!target) throw new Invalid(`${field}: no storage target has the id ${id}`, "invalid_bucket");
    return target;
  }

  /** Throws 409 with the reason when the target does not pass its connection test. */
  async requireWorking(id: string, field = "targetId"): Promise<{ id: string; name: string }> {
    const target = await this.require(id, field);
    const result = await this.test(id);
    if (!result.ok) {
      throw new Conflict(
        `the storage target ${target.name || id} does not pass its connection test: ${result.message}`,
        "target_not_working",
      ).withMessageCode("storage.targetNotWorking", { name: target.name || id, reason: result.reason ?? "failed" });
    }
    return target;
  }

  async create(actor: Actor, input: TargetInput): Promise<TargetView> {
    await this.#checkName(input.name);
    const now = this.#now();
    const id = randomUUID();
    const record: TargetRecord = {
      id,
      name: input.name,
      kind: input.kind,
      settings: this.#settings(input),
      secret: null,
      isDefault: false,
      createdBy: actor.id,
      createdAt: now,
      updatedAt: now,
    };
    if (input.kind === "s3" && input.secretAccessKey) record.secret = this.#encrypt(id, input.secretAccessKey);
    await this.deps.db.kysely.transaction().execute(async (trx) => {
      await this.deps.rows.with(trx).insertTarget(record);
      await this.deps.audit.record(trx, actor, {
        action: "storage.target.create",
        target: { type: "storage_target", id, label: input.name },
        after: { kind: input.kind, ...record.settings, secretSet: record.secret !== null },
      });
    });
    return this.get(id);
  }

  async update(actor: Actor, id: string, input: TargetInput): Promise<TargetView> {
    const before = await this.#requireRow(id);
    if (input.name !== before.name) await this.#checkName(input.name);
    const settings = this.#settings(input);
    const files = (await this.deps.rows.filesPerTarget()).get(id) ?? 0;
    const where = (record: { kind: string; settings: object }) =>
      JSON.stringify([
        record.kind,
        (record.settings as { directory?: string }).directory ?? null,
        (record.settings as { bucket?: string }).bucket ?? null,
        (record.settings as { prefix?: string }).prefix ?? null,
      ]);
    if (files > 0 && where(before) !== where({ kind: input.kind, settings })) {
      throw new Conflict(
        `the storage target ${before.name} holds ${files} files: its kind, folder, bucket and prefix do not change (move its libraries away first)`,
        "target_in_use",
      ).withMessageCode("storage.targetHoldsFiles", { name: before.name, files });
    }
    let secret = before.kind === input.kind ? before.secret : null;
    if (input.kind === "s3" && input.secretAccessKey !== undefined) {
      secret = input.secretAccessKey ? this.#encrypt(id, input.secretAccessKey) : null;
    }
    if (input.kind === "local") secret = null;
    const record: TargetRecord = {
      ...before,
      name: input.name,
      kind: input.kind,
      settings,
      secret,
      updatedAt: this.#now(),
    };
    await this.deps.db.kysely.transaction().execute(async (trx) => {
      await this.deps.rows.with(trx).updateTarget(record);
      await this.deps.audit.record(trx, actor, {
        action: "storage.target.edit",
        target: { type: "storage_target", id, label: input.name },
        ...auditChanges(
          { name: before.name, kind: before.kind, ...before.settings, secretSet: before.secret !== null },
          { name: record.name, kind: record.kind, ...record.settings, secretSet: record.secret !== null },
        ),
      });
    });
    this.deps.stores.forget(id);
    return this.get(id);
  }

  /** Deletes a target nothing uses; refused with the counts otherwise. */
  async delete(actor: Actor, id: string): Promise<void> {
    if (id === BUILT_IN_TARGET) {
      throw new Conflict("the built-in storage cannot be deleted", "built_in_target").withMessageCode(
        "storage.builtInTarget",
      );
    }
    const target = await this.#requireRow(id);
    const view = await this.get(id);
    const moves = await this.deps.rows.activeMovesTo(id);
    if (view.libraries > 0 || (view.files ?? 0) > 0 || moves > 0) {
      throw new Conflict(
        `the storage target ${target.name} is in use: ${view.libraries} libraries put new originals there, it holds ${view.files} files${moves > 0 ? `, ${moves} moves are on their way to it` : ""}`,
        "target_in_use",
      ).withMessageCode("storage.targetInUse", {
        name: target.name,
        libraries: view.libraries,
        files: view.files ?? 0,
      });
    }
    await this.deps.db.kysely.transaction().execute(async (trx) => {
      await this.deps.rows.with(trx).deleteTarget(id);
      await this.deps.audit.record(trx, actor, {
        action: "storage.target.delete",
        target: { type: "storage_target", id, label: target.name },
        before: { name: target.name, kind: target.kind, ...target.settings },
      });
    });
    this.deps.stores.forget(id);
  }

  /** Tests a saved target: writes, reads back and deletes a probe object. */
  async test(id: string): Promise<TargetTestResult> {
    const started = Date.now();
    const store =
      id === BUILT_IN_TARGET
        ? this.deps.storeOptions.builtIn
        : storeOfTarget(await this.#requireRow(id), this.deps.storeOptions);
    return { ...(await probeStore(store)), durationMs: Date.now() - started };
  }

  /** Tests settings before they are saved (the form's "test connection"); an absent secret is the saved one's. */
  async testInput(input: TargetInput, id?: string): Promise<TargetTestResult> {
    const started = Date.now();
    const saved = id ? await this.deps.rows.target(id) : undefined;
    let secret: string | null = null;
    if (input.kind === "s3") {
      if (input.secretAccessKey !== undefined) secret = input.secretAccessKey ?? null;
      else if (saved?.secret) secret = this.#decrypt(saved.id, saved.secret);
    }
    const store = storeOfTarget(
      { id: id ?? "unsaved", kind: input.kind, settings: this.#settings(input), secret: null },
      this.deps.storeOptions,
      secret,
    );
    return { ...(await probeStore(store)), durationMs: Date.now() - started };
  }

  /** Makes a target the default (it must pass its connection test first). */
  async setDefault(actor: Actor, id: string): Promise<void> {
    const target = await this.requireWorking(id);
    const before = await this.defaultTargetId();
    if (before === id) return;
    const now = this.#now();
    await this.deps.db.kysely.transaction().execute(async (trx) => {
      await this.deps.rows.with(trx).setDefault(id === BUILT_IN_TARGET ? null : id, now);
      await this.deps.audit.record(trx, actor, {
        action: "storage.default",
        target: { type: "storage_target", id, label: target.name || "builtin" },
        before: { defaultTargetId: before },
        after: { defaultTargetId: id },
      });
    });
  }

  #view(target: TargetRecord, libraries: number, files: number): TargetView {
    const local = target.kind === "local" ? (target.settings as { directory: string }) : null;
    const s3 = target.kind === "s3" ? (target.settings as import("./storage.repository.js").S3Settings) : null;
    return {
      id: target.id,
      name: target.name,
      kind: target.kind,
      builtIn: false,
      isDefault: target.isDefault,
      directory: local?.directory ?? null,
      endpoint: s3?.endpoint ?? null,
      region: s3?.region ?? null,
      bucket: s3?.bucket ?? null,
      prefix: s3?.prefix ?? null,
      pathStyle: s3 ? s3.pathStyle : null,
      accessKeyId: s3?.accessKeyId ?? null,
      secretSet: target.secret !== null,
      libraries,
      files,
      createTime: target.createdAt,
      updateTime: target.updatedAt,
    };
  }

  #settings(input: TargetInput): TargetRecord["settings"] {
    if (input.kind === "local") return { directory: input.directory };
    return {
      endpoint: input.endpoint,
      region: input.region,
      bucket: input.bucket,
      prefix: input.prefix,
      pathStyle: input.pathStyle,
      accessKeyId: input.accessKeyId,
    };
  }

  async #checkName(name: string): Promise<void> {
    if (await this.deps.rows.targetByName(name)) {
      throw new Conflict(`name: a storage target is already called ${name}`, "target_name_taken").withMessageCode(
        "storage.nameTaken",
        { name },
      );
    }
  }

  async #requireRow(id: string): Promise<TargetRecord> {
    const target = id === BUILT_IN_TARGET ? undefined : await this.deps.rows.target(id);
    if (!target) throw new NotFound(`storage target ${id} does not exist`, "target_not_found");
    return target;
  }

  #encrypt(id: string, secretAccessKey: string): string {
    return this.deps.cipher.encrypt(secretContext(id), { secretAccessKey });
  }

  #decrypt(id: string, stored: string): string | null {
    return this.deps.cipher.decrypt(secretContext(id), stored).secretAccessKey ?? null;
  }

  #now(): string {
    return (this.deps.clock?.() ?? new Date()).toISOString();
  }
}
