import { randomUUID } from "node:crypto";
import type { Db } from "../../db/database.js";
import { Conflict, Invalid, NotFound } from "../../http/errors.js";
import type { AuditLog } from "../audit/audit-log.js";
import type { Actor } from "../auth/actor.js";
import type { AddressPolicy } from "../url-ingest/address-policy.js";
import type { ChannelRecord, ChannelsRepository } from "./channels.repository.js";
import {
  type ChannelFormat,
  type ChannelInput,
  type ChannelKind,
  type ChannelPresets,
  type ChannelSettings,
  CREDENTIAL_FIELDS,
  PRESET_STORY_TYPES,
  SETTINGS_OF,
} from "./channels.schema.js";
import type { CredentialsCipher } from "./credentials-cipher.js";
import { DeliveryError, type Transport, transportFor } from "./transports/index.js";

/** A channel as the API shows it: its credentials never, only which of them are set. */
export interface ChannelView extends Omit<ChannelRecord, "credentials" | "createdBy"> {
  credentialsSet: string[];
}

/** A channel ready to deliver: its settings, format and mapping, and a transport holding the decrypted credentials. */
export interface OpenChannel {
  id: string;
  name: string;
  format: ChannelFormat;
  enabled: boolean;
  fieldMapping: Record<string, string>;
  /** The download preset to deliver per story type; a type without one gets its original. */
  presets: ChannelPresets;
  /** The largest file the channel sends (settings.maxFileMb), or null for no limit. */
  maxFileBytes: number | null;
  transport: Transport;
}

export interface ChannelsDependencies {
  db: Db;
  channels: ChannelsRepository;
  cipher: CredentialsCipher;
  policy: AddressPolicy;
  audit: AuditLog;
  clock?: () => Date;
  /** A download preset's story type, or undefined when there is no such preset (the presets module's service). */
  presetType: (id: string) => Promise<string | undefined>;
  /** How many deliveries to a channel are still to be sent (the publishing module's service). */
  openDeliveries: (channelId: string) => Promise<number>;
}

/** Publishing channels (the spec's tunnels): their settings, write-only credentials, and the connection test. */
export class ChannelsService {
  constructor(private readonly deps: ChannelsDependencies) {}

  #now(): string {
    return (this.deps.clock?.() ?? new Date()).toISOString();
  }

  #credentials(record: ChannelRecord): Record<string, string> {
    return record.credentials ? this.deps.cipher.decrypt(record.id, record.credentials) : {};
  }

  #view(record: ChannelRecord): ChannelView {
    const { credentials: _secret, createdBy: _by, ...rest } = record;
    return { ...rest, credentialsSet: Object.keys(this.#credentials(record)).sort() };
  }

  async list(): Promise<ChannelView[]> {
    return (await this.deps.channels.list()).map((record) => this.#view(record));
  }

  /** Enabled channels by name, for the publish dialog. */
  async options(): Promise<Pick<ChannelView, "id" | "name" | "kind" | "format">[]> {
    return (await this.deps.channels.list())
      .filter((record) => record.enabled)
      .map(({ id, name, kind, format }) => ({ id, name, kind, format }));
  }

  async get(id: string): Promise<ChannelView> {
    return this.#view(await this.#require(id));
  }

  async #require(id: string): Promise<ChannelRecord> {
    const record = await this.deps.channels.find(id);
    if (!record) throw new NotFound("no such channel", "channel_not_found");
    return record;
  }

  /** The credentials after a write: values set, nulls cleared, absent fields kept; only the kind's fields. */
  #mergeCredentials(kind: ChannelKind, before: Record<string, string>, patch: ChannelInput["credentials"]) {
    const allowed = CREDENTIAL_FIELDS[kind];
    const merged: Record<string, string> = {};
    for (const [field, value] of Object.entries(before)) if (allowed.includes(field)) merged[field] = value;
    for (const [field, value] of Object.entries(patch ?? {})) {
      if (!allowed.includes(field)) {
        throw new Invalid(
          `credentials.${field}: a ${kind} channel takes ${allowed.length ? allowed.join(", ") : "no credentials"}`,
          "invalid_credentials",
        );
      }
      if (value === null || value === "") delete merged[field];
      else merged[field] = value;
    }
    return merged;
  }

  async #checkInput(input: ChannelInput, id?: string): Promise<void> {
    const named = await this.deps.channels.findByName(input.name);
    if (named && named.id !== id)
      throw new Conflict(`name: a channel is already called ${input.name}`, "channel_name_taken");
  }

  /** The input's presets without empty entries, each an existing preset of its story type. */
  async #presets(input: ChannelInput): Promise<ChannelPresets> {
    const presets: ChannelPresets = {};
    for (const type of PRESET_STORY_TYPES) {
      const id = input.presets[type];
      if (!id) continue;
      const presetType = await this.deps.presetType(id);
      if (!presetType) throw new Invalid(`presets.${type}: no download preset ${id}`, "invalid_preset");
      if (presetType !== type)
        throw new Invalid(`presets.${type}: the preset ${id} is a ${presetType} preset`, "invalid_preset");
      presets[type] = id;
    }
    return presets;
  }

  /** A channel's fields as `input` sets them, with its credentials sealed for the channel `id`. */
  #fields(id: string, input: ChannelInput, presets: ChannelPresets, credentials: Record<string, string>) {
    return {
      name: input.name,
      kind: input.kind,
      format: input.format,
      enabled: input.enabled,
      settings: input.settings,
      fieldMapping: input.fieldMapping as Record<string, string>,
      presets,
      credentials: Object.keys(credentials).length > 0 ? this.deps.cipher.encrypt(id, credentials) : null,
    };
  }

  async create(actor: Actor, input: ChannelInput): Promise<ChannelView> {
    await this.#checkInput(input);
    const presets = await this.#presets(input);
    const now = this.#now();
    const id = randomUUID();
    const credentials = this.#mergeCredentials(input.kind, {}, input.credentials);
    const record: ChannelRecord = {
      id,
      ...this.#fields(id, input, presets, credentials),
      createdBy: actor.id,
      createdAt: now,
      updatedAt: now,
    };
    await this.deps.db.kysely.transaction().execute(async (trx) => {
      await this.deps.channels.with(trx).insert(record);
      await this.deps.audit.record(trx, actor, {
        action: "channel.create",
        target: { type: "channel", id, label: record.name },
        after: {
          kind: record.kind,
          format: record.format,
          settings: record.settings,
          presets,
          credentials: Object.keys(credentials),
        },
      });
    });
    return this.#view(record);
  }

  async update(actor: Actor, id: string, input: ChannelInput): Promise<ChannelView> {
    const before = await this.#require(id);
    await this.#checkInput(input, id);
    const presets = await this.#presets(input);
    const credentials = this.#mergeCredentials(input.kind, this.#credentials(before), input.credentials);
    const record: ChannelRecord = {
      ...before,
      ...this.#fields(id, input, presets, credentials),
      updatedAt: this.#now(),
    };
    await this.deps.db.kysely.transaction().execute(async (trx) => {
      await this.deps.channels.with(trx).update(record);
      await this.deps.audit.record(trx, actor, {
        action: "channel.update",
        target: { type: "channel", id, label: record.name },
        before: {
          name: before.name,
          kind: before.kind,
          format: before.format,
          enabled: before.enabled,
          settings: before.settings,
          presets: before.presets,
        },
        after: {
          name: record.name,
          kind: record.kind,
          format: record.format,
          enabled: record.enabled,
          settings: record.settings,
          presets,
        },
        details: { credentialsChanged: Object.keys(input.credentials ?? {}) },
      });
    });
    return this.#view(record);
  }

  async delete(actor: Actor, id: string): Promise<void> {
    const before = await this.#require(id);
    const open = await this.deps.openDeliveries(id);
    if (open > 0) {
      throw new Conflict(
        `${open} deliveries to ${before.name} are still to be sent; cancel them in the publish monitor or disable the channel first`,
        "channel_busy",
      );
    }
    await this.deps.db.kysely.transaction().execute(async (trx) => {
      await this.deps.channels.with(trx).delete(id);
      await this.deps.audit.record(trx, actor, {
        action: "channel.delete",
        target: { type: "channel", id, label: before.name },
      });
    });
  }

  /** Opens a stored channel for a delivery: undefined when it was deleted. */
  async open(id: string): Promise<OpenChannel | undefined> {
    const record = await this.deps.channels.find(id);
    if (!record) return undefined;
    return { ...this.#open(record), enabled: record.enabled };
  }

  #open(record: ChannelRecord): Omit<OpenChannel, "enabled"> {
    const settings = SETTINGS_OF[record.kind].parse(record.settings);
    const transport = transportFor(
      { kind: record.kind, settings } as ChannelSettings,
      this.#credentials(record),
      this.deps.policy,
    );
    return {
      id: record.id,
      name: record.name,
      format: record.format,
      fieldMapping: record.fieldMapping,
      presets: record.presets,
      maxFileBytes: settings.maxFileMb ? settings.maxFileMb * 1_000_000 : null,
      transport,
    };
  }

  /** "Test connection": connects with the stored settings and answers with what happened, never throws for a failure. */
  async test(actor: Actor, id: string): Promise<{ ok: boolean; reason: string; durationMs: number }> {
    const record = await this.#require(id);
    const started = Date.now();
    const { transport } = this.#open(record);
    const signal = AbortSignal.timeout(60_000);
    let result: { ok: boolean; reason: string };
    try {
      result = { ok: true, reason: await transport.test(signal) };
    } catch (error) {
      result = {
        ok: false,
        reason: error instanceof DeliveryError ? error.message : `unexpected: ${(error as Error).message}`,
      };
    }
    await this.deps.audit.recordEvent(actor, {
      action: "channel.test",
      target: { type: "channel", id, label: record.name },
      result: result.ok ? "ok" : "failed",
      details: { reason: result.reason },
    });
    return { ...result, durationMs: Date.now() - started };
  }
}
