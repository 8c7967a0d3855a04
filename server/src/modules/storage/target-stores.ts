import path from "node:path";
import type { BlobStore } from "../blobs/blob-store.js";
import { LocalBlobStore } from "../blobs/local-blob-store.js";
import { PrefixedBlobStore } from "../blobs/prefixed-blob-store.js";
import { S3BlobStore } from "../blobs/s3-blob-store.js";
import type { CredentialsCipher } from "../channels/credentials-cipher.js";
import type { LocalSettings, S3Settings, TargetRecord } from "./storage.repository.js";

/** The built-in storage's id: the configured store (DAMS_STORAGE), never a row. */
export const BUILT_IN_TARGET = "builtin";

/** How long a target's store is reused before its row is read again (an edited key reaches every node). */
const STORE_TTL_MS = 10_000;

/** The additional authenticated data of a target's secret: bound to its row, distinct from channels'. */
export const secretContext = (targetId: string) => `storage-target:${targetId}`;

export interface TargetStoreOptions {
  /** The configured store: the built-in target. */
  builtIn: BlobStore;
  /** Local targets are folders under this directory ($DAMS_DATA_DIR/targets). */
  localRoot: string;
  /** Scratch space for S3 targets' local copies (sharp, ffmpeg). */
  scratchDirectory: string;
  cipher: CredentialsCipher;
}

/** Where a local target's files are: a folder under the targets root, never elsewhere. */
export function localDirectory(localRoot: string, settings: LocalSettings): string {
  return path.join(localRoot, settings.directory);
}

/**
 * Where a store's keys are, ending in `/`: its folder, or its endpoint, bucket
 * and prefix. Two targets with the same place hold the same files (the sweeper
 * walks them as one).
 */
export function placeOf(
  where:
    | { kind: "local"; directory: string }
    | { kind: "s3"; endpoint?: string | null; region: string; bucket: string; prefix?: string | null },
): string {
  if (where.kind === "local") return `local:${path.resolve(where.directory)}/`;
  const endpoint = (where.endpoint ?? `aws:${where.region}`).replace(/\/+$/, "").toLowerCase();
  const prefix = where.prefix ? `${where.prefix.replace(/^\/+|\/+$/g, "")}/` : "";
  return `s3:${endpoint}/${where.bucket}/${prefix}`;
}

/** The place of a target's row (placeOf). */
export function placeOfTarget(target: Pick<TargetRecord, "kind" | "settings">, localRoot: string): string {
  return target.kind === "local"
    ? placeOf({ kind: "local", directory: localDirectory(localRoot, target.settings as LocalSettings) })
    : placeOf({ kind: "s3", ...(target.settings as S3Settings) });
}

/** A BlobStore for one target, built from its row (settings and decrypted secret). */
export function storeOfTarget(
  target: Pick<TargetRecord, "id" | "kind" | "settings" | "secret">,
  options: TargetStoreOptions,
  secretAccessKey?: string | null,
): BlobStore {
  if (target.kind === "local") {
    return new LocalBlobStore(localDirectory(options.localRoot, target.settings as LocalSettings));
  }
  const settings = target.settings as S3Settings;
  const secret =
    secretAccessKey !== undefined
      ? secretAccessKey
      : target.secret
        ? (options.cipher.decrypt(secretContext(target.id), target.secret).secretAccessKey ?? null)
        : null;
  const store = new S3BlobStore({
    kind: "s3",
    bucket: settings.bucket,
    region: settings.region,
    endpoint: settings.endpoint ?? undefined,
    forcePathStyle: settings.pathStyle,
    credentials:
      settings.accessKeyId && secret ? { accessKeyId: settings.accessKeyId, secretAccessKey: secret } : undefined,
    presignedDownloads: false,
    scratchDirectory: options.scratchDirectory,
  });
  return settings.prefix ? new PrefixedBlobStore(store, settings.prefix) : store;
}

/** Each target's store, built once and rebuilt when its row changed. */
export class TargetStores {
  readonly #cache = new Map<string, { updatedAt: string; store: BlobStore; checkedAt: number }>();

  constructor(
    private readonly options: TargetStoreOptions,
    private readonly load: (id: string) => Promise<TargetRecord | undefined>,
  ) {}

  get builtIn(): BlobStore {
    return this.options.builtIn;
  }

  /** The store of a target; the built-in one for BUILT_IN_TARGET; throws for a target that no longer exists. */
  async of(targetId: string): Promise<BlobStore> {
    if (targetId === BUILT_IN_TARGET) return this.options.builtIn;
    const cached = this.#cache.get(targetId);
    if (cached && Date.now() - cached.checkedAt < STORE_TTL_MS) return cached.store;
    const target = await this.load(targetId);
    if (!target) throw new Error(`storage target ${targetId} does not exist`);
    if (cached && cached.updatedAt === target.updatedAt) {
      cached.checkedAt = Date.now();
      return cached.store;
    }
    const store = storeOfTarget(target, this.options);
    this.#cache.set(targetId, { updatedAt: target.updatedAt, store, checkedAt: Date.now() });
    return store;
  }

  forget(targetId: string): void {
    this.#cache.delete(targetId);
  }
}
