import { isIP } from "node:net";
import os from "node:os";
import path from "node:path";
import { z } from "zod";

/**
 * The one place that reads process.env. Everything else receives a Config.
 * A bad value stops the process at boot with a message naming the variable.
 */
const booleanFromEnv = z
  .enum(["1", "0", "true", "false", "yes", "no"])
  .transform((value) => value === "1" || value === "true" || value === "yes");

/**
 * A comma-separated list in one variable: each entry trimmed (then `tidy`), empty ones dropped, and the list checked
 * by `list`.
 */
function commaList<List extends z.ZodType<unknown, string[]>>(list: List, tidy = (entry: string) => entry) {
  return z
    .string()
    .transform((value) =>
      value
        .split(",")
        .map((entry) => tidy(entry.trim()))
        .filter(Boolean),
    )
    .pipe(list);
}

/** `127.0.0.1/32`, `10.20.0.0/16`, `::1/128`: an IP address and a prefix length its family allows. */
function isAddressRange(value: string): boolean {
  const match = /^([^/]+)\/(\d{1,3})$/.exec(value);
  const family = match ? isIP(match[1]!) : 0;
  return family !== 0 && Number(match![2]) <= (family === 4 ? 32 : 128);
}

const addressRange = z
  .string()
  .refine(isAddressRange, "each entry must be an address range like 127.0.0.1/32 or ::1/128");

/** `https://cms.example.com` or `http://127.0.0.1:8081`: a scheme, a host and maybe a port, nothing else. */
function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "https:" || url.protocol === "http:") && url.origin === value;
  } catch {
    return false;
  }
}

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default("0.0.0.0"),
  DAMS_DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: z
    .string()
    .refine((value) => /^(postgres|postgresql|sqlite|file):/.test(value), {
      message: "must start with postgres://, postgresql://, sqlite: or file:",
    })
    .optional(),
  DAMS_ADMIN_USERNAME: z.string().min(1).max(64).default("admin"),
  DAMS_ADMIN_PASSWORD: z.string().min(8, "must be at least 8 characters").optional(),
  DAMS_PUBLIC_URL: z.url().optional(),
  DAMS_WEB_DIR: z.string().min(1).optional(),
  DAMS_BODY_LIMIT: z.coerce
    .number()
    .int()
    .positive()
    .default(10 * 1024 * 1024),
  // The image editor's and cover cropper's saves carry a whole image as base64: 50 MB images (spec
  // section 9's large platform limit) are 67 MB of base64.
  DAMS_IMAGE_BODY_LIMIT: z.coerce
    .number()
    .int()
    .positive()
    .default(72 * 1024 * 1024),
  DAMS_REQUEST_TIMEOUT_MS: z.coerce.number().int().positive().default(120_000),
  DAMS_LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  DAMS_TRUST_PROXY: booleanFromEnv.default(false),
  DAMS_METRICS_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
  DAMS_OIDC_KEYS_FILE: z.string().min(1).optional(),
  DAMS_OIDC_REDIRECT_URIS: commaList(z.array(z.url("each redirect URI must be an absolute URL")).min(1)).optional(),
  DAMS_OIDC_ACCESS_TOKEN_TTL: z.coerce.number().int().min(30).max(86_400).default(600),
  DAMS_OIDC_ISSUER_URL: z.url().optional(),
  DAMS_OIDC_CLIENT_ID: z.string().min(1).default("newsroom"),
  DAMS_OIDC_AUDIENCE: z.string().min(1).optional(),
  DAMS_MEDIA_MAX_PIXELS: z.coerce.number().int().min(1_000_000).default(268_402_689),
  DAMS_MEDIA_TIMEOUT_SECONDS: z.coerce
    .number()
    .int()
    .min(10)
    .default(4 * 3600),
  DAMS_MEDIA_MEMORY_MB: z.coerce.number().int().min(256).default(4096),
  DAMS_MEDIA_NICE: z.coerce.number().int().min(0).max(19).default(10),
  DAMS_MEDIA_THREADS: z.coerce
    .number()
    .int()
    .min(0)
    .max(256)
    .default(Math.max(1, Math.floor(os.availableParallelism() / 2))),
  DAMS_OIDC_ADMIN_CLAIM: z
    .string()
    .regex(/^[^=\s]+=[^=]+$/, "must look like claim=value, e.g. groups=dams-admins or admin=true")
    .optional(),
  DAMS_WORKERS: z.coerce.number().int().min(0).max(64).default(2),
  DAMS_JOBS_POLL_MS: z.coerce.number().int().min(10).max(60_000).default(1000),
  DAMS_JOBS_LEASE_MS: z.coerce.number().int().min(300).max(3_600_000).default(30_000),
  DAMS_JOBS_BACKOFF_MS: z.coerce.number().int().min(1).max(3_600_000).default(5000),
  DAMS_JOBS_BACKOFF_MAX_MS: z.coerce.number().int().min(1).max(86_400_000).default(3_600_000),
  DAMS_JOBS_PROGRESS_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
  DAMS_JOBS_STOP_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).default(8000),
  DAMS_JOBS_ABORT_GRACE_MS: z.coerce.number().int().min(0).max(600_000).default(5000),
  DAMS_STORAGE: z.enum(["local", "s3"]).default("local"),
  S3_ENDPOINT: z.url().optional(),
  S3_BUCKET: z.string().min(3).max(63).optional(),
  S3_REGION: z.string().min(1).default("us-east-1"),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: booleanFromEnv.default(false),
  S3_PRESIGNED_DOWNLOADS: booleanFromEnv.default(false),
  DAMS_FETCH_MAX_BYTES: z.coerce.number().int().positive().optional(),
  DAMS_FETCH_ALLOW_PRIVATE: commaList(z.array(addressRange)).default([]),
  DAMS_CHANNEL_ALLOW_PRIVATE: commaList(z.array(addressRange)).default([]),
  DAMS_FETCH_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(15_000),
  DAMS_FETCH_IDLE_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
  DAMS_EMBED_ORIGINS: commaList(
    z.array(z.string().refine(isOrigin, "each entry must be an origin like https://cms.example.com (no path)")),
    (origin) => origin.replace(/\/+$/, ""),
  ).default([]),
  DAMS_MEDIA_URL_KEY: z.string().min(32, "must be at least 32 characters").optional(),
  DAMS_MEDIA_URL_KEY_FILE: z.string().min(1).optional(),
  DAMS_CHANNEL_CREDENTIALS_KEY: z.string().min(32, "must be at least 32 characters").optional(),
  DAMS_CHANNEL_CREDENTIALS_KEY_FILE: z.string().min(1).optional(),
  DAMS_MEDIA_URL_TTL_SECONDS: z.coerce.number().int().min(60).max(86_400).default(600),
  DAMS_AUTH_CACHE_SECONDS: z.coerce.number().min(0).max(60).default(5),
  DAMS_FETCH_HLS_MAX_SEGMENTS: z.coerce.number().int().min(1).max(100_000).default(3000),
  DAMS_FETCH_HLS_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .max(6 * 3_600_000)
    .default(30 * 60_000),
  DAMS_UPLOADS_DIR: z.string().min(1).optional(),
  DAMS_UPLOADS_STORE: z.enum(["directory", "s3"]).optional(),
  DAMS_UPLOAD_MAX_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(20 * 1024 ** 3),
  // An upload's request (tus, WebDAV PUT) has no deadline but must bring this many bytes in every window.
  DAMS_UPLOAD_MIN_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(64 * 1024),
  DAMS_UPLOAD_WINDOW_MS: z.coerce.number().int().min(1000).default(60_000),
  // The web app's tus PATCH size, for a proxy with a body limit in front of dams (0: each file in one request).
  DAMS_UPLOAD_CHUNK_MIB: z.coerce.number().int().min(0).default(0),
  // A creation-with-upload POST carrying a whole file up to this size is stored without tus's staging (0: never).
  DAMS_UPLOAD_WHOLE_MAX_MIB: z.coerce.number().int().min(0).max(256).default(16),
});

export type DatabaseConfig = { kind: "sqlite"; file: string } | { kind: "postgres"; url: string };

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  database: DatabaseConfig;
  admin: { username: string; password?: string };
  publicUrl?: string;
  webDir: string;
  bodyLimit: number;
  /** The larger body limit of the two image-saving calls (/upload-images/base64image and /cover). */
  imageBodyLimit: number;
  requestTimeoutMs: number;
  /**
   * How long the API keeps a caller's verified token, account and
   * permissions, and their library levels (0: looked up on every request).
   * Changes made through the API drop them at once on every node.
   */
  authCacheMs: number;
  logLevel: z.infer<typeof envSchema>["DAMS_LOG_LEVEL"];
  trustProxy: boolean;
  /** DAMS_METRICS_TOKEN: a scraper's bearer token for /metrics (else only monitor readers' access tokens). */
  metricsToken?: string;
  oidc: OidcConfig;
  jobs: JobsConfig;
  media: MediaConfig;
  storage: StorageConfig;
  uploads: UploadsConfig;
  urlIngest: UrlIngestConfig;
  embed: EmbedConfig;
  mediaUrls: MediaUrlsConfig;
  channelCredentials: ChannelCredentialsConfig;
  channels: ChannelsConfig;
}

/**
 * A key every node must share (modules/secrets): given as a value or a file,
 * else generated once and kept in the database. `legacyFile` is where an
 * earlier version generated it in the data dir (imported once).
 */
export interface SharedKeyConfig {
  /** The variable's value (32+ characters). */
  key?: string;
  /** A file holding it (created with a random key, mode 0600, when absent). */
  keyFile?: string;
  legacyFile?: string;
}

/** The key that encrypts publishing channels' credentials (SFTP passwords, S3 keys, HMAC secrets) at rest. */
export type ChannelCredentialsConfig = SharedKeyConfig;

/** Publishing channels (docs/publishing.md). */
export interface ChannelsConfig {
  /** Private address ranges HTTP channels may deliver to (DAMS_CHANNEL_ALLOW_PRIVATE); public ones need nothing. */
  allowPrivate: string[];
}

/** Other newsroom systems that may frame the embeddable pages (docs/embedding.md). */
export interface EmbedConfig {
  /** Exact origins (scheme, host, port) allowed to frame /source/ismpsource and /source/ismpupload and talk to them. */
  origins: string[];
}

/** Signed media URLs (docs/security.md): the HMAC key and how long a URL lives. */
export interface MediaUrlsConfig extends SharedKeyConfig {
  /** A URL is valid at least this long (and at most half as long again: expiries are rounded up to share URLs). */
  ttlSeconds: number;
}

/** Fetching media from a URL (docs/url-ingest.md); the address rules are in docs/security.md. */
export interface UrlIngestConfig {
  /** Larger responses are refused, by Content-Length and by the bytes streamed. */
  maxBytes: number;
  /** Address ranges (CIDR) that may be fetched although private or loopback; empty by default. */
  allowPrivate: string[];
  /** Until the response headers arrive (each hop). */
  connectTimeoutMs: number;
  /** Longest silence while the body streams. */
  idleTimeoutMs: number;
  /** Where responses stream before they become blobs. */
  workDir: string;
  /** An HLS media playlist with more segments is refused. */
  hlsMaxSegments: number;
  /** Wall-clock limit of fetching one HLS stream (playlists and every segment). */
  hlsTimeoutMs: number;
}

/** The durable job queue and its workers (docs/jobs.md). */
export interface JobsConfig {
  /** In-process worker concurrency of `dams serve` and `dams worker`; 0 runs no workers. */
  workers: number;
  /** How often an idle worker looks for due jobs (a local enqueue wakes it at once). */
  pollIntervalMs: number;
  /** How long a claim holds a job; renewed every third of it while the handler runs. */
  leaseMs: number;
  /** First retry delay; doubled per attempt, with jitter, up to backoffMaxMs. */
  backoffBaseMs: number;
  backoffMaxMs: number;
  /** At most one progress write per job in this interval. */
  progressIntervalMs: number;
  /** On stop, how long running jobs may finish before their leases are released. */
  stopTimeoutMs: number;
  /** After a job's signal aborts (cancel, timeout, lost lease), how long its handler may take to return. */
  abortGraceMs: number;
}

/** Limits for media processing (server/src/media takes them as parameters). */
export interface MediaConfig {
  /** Images with more pixels are refused before decoding (sharp limitInputPixels). */
  maxPixels: number;
  /** Wall-clock limit of one ffmpeg/ffprobe/exiftool run. */
  timeoutMs: number;
  /** Address-space limit of one ffmpeg/ffprobe/exiftool process (prlimit --as). */
  memoryBytes: number;
  /** Scheduling priority of the tools (`nice -n`, 0–19): the API's requests go first when the cores are busy. */
  nice: number;
  /** Threads of one ffmpeg (decoder, filters, encoder) and of libvips (sharp.concurrency); 0 = the tools' default. */
  threads: number;
}

/** Where blobs live: under the data dir, or in an S3-compatible bucket. */
export type StorageConfig =
  | { kind: "local"; directory: string }
  | {
      kind: "s3";
      bucket: string;
      region: string;
      /** Unset for AWS itself; MinIO, Ceph RGW, Garage… need theirs. */
      endpoint?: string;
      forcePathStyle: boolean;
      /** Unset: the SDK's default chain (environment, instance role). */
      credentials?: { accessKeyId: string; secretAccessKey: string };
      /** Downloads answer 302 to a presigned URL instead of streaming through the API. */
      presignedDownloads: boolean;
      /** Scratch space for withLocalFile copies. */
      scratchDirectory: string;
    };

/**
 * Where tus uploads in progress live: files in `directory` (local, or a
 * directory every API node mounts), or the S3 bucket of the blobs (`s3`,
 * the default when the blobs are in S3).
 */
export interface UploadsConfig {
  store: "directory" | "s3";
  directory: string;
  /** The bucket's settings, with `store: "s3"`. */
  s3?: Extract<StorageConfig, { kind: "s3" }>;
  maxBytes: number;
  /** An upload's body must bring `minBytes` in every `windowMs` (it has no deadline otherwise). */
  minBytes: number;
  windowMs: number;
  /** The PATCH size the web app is told to send (tus OPTIONS `Dams-Upload-Chunk-Size`); 0: the whole file at once. */
  chunkBytes: number;
  /**
   * A creation-with-upload POST whose body is the whole file, up to this many bytes, is read into memory and
   * stored at once, without tus's staging (`whole-upload.ts`); 0: every upload goes through tus.
   */
  wholeMaxBytes: number;
}

/** Sign-in: the embedded OpenID Connect provider, or an external issuer when `external` is set. */
export interface OidcConfig {
  /** DAMS_PUBLIC_URL without a trailing slash, or http://localhost:<PORT>. */
  publicBase: string;
  /** DAMS_OIDC_KEYS_FILE: the keys come from this file (every node the same); unset, from the database. */
  keysFile?: string;
  /** Where earlier versions generated them (imported into the database once). */
  legacyKeysFile: string;
  redirectUris: string[];
  accessTokenTtlSeconds: number;
  clientId: string;
  external?: {
    issuerUrl: string;
    /** The `aud` the API expects in access tokens. */
    audience: string;
    /** The claim and value that make a provisioned user an administrator. */
    adminClaim?: { name: string; value: string };
  };
}

export class ConfigError extends Error {}

function storageFrom(values: z.infer<typeof envSchema>, dataDir: string): StorageConfig {
  if (values.DAMS_STORAGE === "local") return { kind: "local", directory: path.join(dataDir, "blobs") };
  if (!values.S3_BUCKET) throw new ConfigError("Invalid configuration:\n  S3_BUCKET: required when DAMS_STORAGE=s3");
  if (Boolean(values.S3_ACCESS_KEY_ID) !== Boolean(values.S3_SECRET_ACCESS_KEY)) {
    throw new ConfigError(
      "Invalid configuration:\n  S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: set both, or neither for the SDK's default credentials",
    );
  }
  return {
    kind: "s3",
    bucket: values.S3_BUCKET,
    region: values.S3_REGION,
    endpoint: values.S3_ENDPOINT,
    forcePathStyle: values.S3_FORCE_PATH_STYLE,
    credentials:
      values.S3_ACCESS_KEY_ID && values.S3_SECRET_ACCESS_KEY
        ? { accessKeyId: values.S3_ACCESS_KEY_ID, secretAccessKey: values.S3_SECRET_ACCESS_KEY }
        : undefined,
    presignedDownloads: values.S3_PRESIGNED_DOWNLOADS,
    scratchDirectory: path.join(dataDir, "tmp"),
  };
}

function uploadsFrom(values: z.infer<typeof envSchema>, dataDir: string, storage: StorageConfig): UploadsConfig {
  const store = values.DAMS_UPLOADS_STORE ?? (storage.kind === "s3" ? "s3" : "directory");
  if (store === "s3" && storage.kind !== "s3") {
    throw new ConfigError(
      "Invalid configuration:\n  DAMS_UPLOADS_STORE: s3 needs DAMS_STORAGE=s3 (the uploads go to its bucket)",
    );
  }
  return {
    store,
    directory: path.resolve(values.DAMS_UPLOADS_DIR ?? path.join(dataDir, "uploads")),
    s3: store === "s3" && storage.kind === "s3" ? storage : undefined,
    maxBytes: values.DAMS_UPLOAD_MAX_BYTES,
    minBytes: values.DAMS_UPLOAD_MIN_BYTES,
    windowMs: values.DAMS_UPLOAD_WINDOW_MS,
    chunkBytes: values.DAMS_UPLOAD_CHUNK_MIB * 1024 * 1024,
    wholeMaxBytes: values.DAMS_UPLOAD_WHOLE_MAX_MIB * 1024 * 1024,
  };
}

function databaseFrom(url: string | undefined, dataDir: string): DatabaseConfig {
  if (url === undefined) return { kind: "sqlite", file: path.join(dataDir, "dams.sqlite") };
  if (url.startsWith("postgres")) return { kind: "postgres", url };
  const file = url.replace(/^(sqlite|file):(\/\/)?/, "");
  return { kind: "sqlite", file: file === ":memory:" ? file : path.resolve(file) };
}

/** The built web app ships beside the server in the repository: web/dist. */
function defaultWebDir(): string {
  return path.resolve(import.meta.dirname, "../../web/dist");
}

function oidcFrom(values: z.infer<typeof envSchema>, dataDir: string): OidcConfig {
  const publicBase = (values.DAMS_PUBLIC_URL ?? `http://localhost:${values.PORT}`).replace(/\/+$/, "");
  const adminClaim = values.DAMS_OIDC_ADMIN_CLAIM?.split("=");
  return {
    publicBase,
    keysFile: values.DAMS_OIDC_KEYS_FILE ? path.resolve(values.DAMS_OIDC_KEYS_FILE) : undefined,
    legacyKeysFile: path.join(dataDir, "oidc-keys.json"),
    redirectUris: values.DAMS_OIDC_REDIRECT_URIS ?? [`${publicBase}/user/login`],
    accessTokenTtlSeconds: values.DAMS_OIDC_ACCESS_TOKEN_TTL,
    clientId: values.DAMS_OIDC_CLIENT_ID,
    external: values.DAMS_OIDC_ISSUER_URL
      ? {
          issuerUrl: values.DAMS_OIDC_ISSUER_URL.replace(/\/+$/, ""),
          audience: values.DAMS_OIDC_AUDIENCE ?? values.DAMS_OIDC_CLIENT_ID,
          adminClaim: adminClaim ? { name: adminClaim[0]!, value: adminClaim[1]! } : undefined,
        }
      : undefined,
  };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`).join("\n");
    throw new ConfigError(`Invalid configuration:\n${problems}`);
  }
  const values = parsed.data;
  const dataDir = path.resolve(values.DAMS_DATA_DIR);
  const storage = storageFrom(values, dataDir);
  return {
    port: values.PORT,
    host: values.HOST,
    dataDir,
    database: databaseFrom(values.DATABASE_URL, dataDir),
    admin: { username: values.DAMS_ADMIN_USERNAME, password: values.DAMS_ADMIN_PASSWORD },
    publicUrl: values.DAMS_PUBLIC_URL,
    webDir: values.DAMS_WEB_DIR ? path.resolve(values.DAMS_WEB_DIR) : defaultWebDir(),
    bodyLimit: values.DAMS_BODY_LIMIT,
    imageBodyLimit: values.DAMS_IMAGE_BODY_LIMIT,
    requestTimeoutMs: values.DAMS_REQUEST_TIMEOUT_MS,
    authCacheMs: Math.round(values.DAMS_AUTH_CACHE_SECONDS * 1000),
    logLevel: values.DAMS_LOG_LEVEL,
    trustProxy: values.DAMS_TRUST_PROXY,
    metricsToken: values.DAMS_METRICS_TOKEN,
    oidc: oidcFrom(values, dataDir),
    jobs: {
      workers: values.DAMS_WORKERS,
      pollIntervalMs: values.DAMS_JOBS_POLL_MS,
      leaseMs: values.DAMS_JOBS_LEASE_MS,
      backoffBaseMs: values.DAMS_JOBS_BACKOFF_MS,
      backoffMaxMs: values.DAMS_JOBS_BACKOFF_MAX_MS,
      progressIntervalMs: values.DAMS_JOBS_PROGRESS_MS,
      stopTimeoutMs: values.DAMS_JOBS_STOP_TIMEOUT_MS,
      abortGraceMs: values.DAMS_JOBS_ABORT_GRACE_MS,
    },
    media: {
      maxPixels: values.DAMS_MEDIA_MAX_PIXELS,
      timeoutMs: values.DAMS_MEDIA_TIMEOUT_SECONDS * 1000,
      memoryBytes: values.DAMS_MEDIA_MEMORY_MB * 1024 * 1024,
      nice: values.DAMS_MEDIA_NICE,
      threads: values.DAMS_MEDIA_THREADS,
    },
    storage,
    uploads: uploadsFrom(values, dataDir, storage),
    urlIngest: {
      maxBytes: values.DAMS_FETCH_MAX_BYTES ?? values.DAMS_UPLOAD_MAX_BYTES,
      allowPrivate: values.DAMS_FETCH_ALLOW_PRIVATE,
      connectTimeoutMs: values.DAMS_FETCH_CONNECT_TIMEOUT_MS,
      idleTimeoutMs: values.DAMS_FETCH_IDLE_TIMEOUT_MS,
      hlsMaxSegments: values.DAMS_FETCH_HLS_MAX_SEGMENTS,
      hlsTimeoutMs: values.DAMS_FETCH_HLS_TIMEOUT_MS,
      workDir: path.join(dataDir, "tmp", "url-fetch"),
    },
    embed: { origins: values.DAMS_EMBED_ORIGINS },
    mediaUrls: {
      key: values.DAMS_MEDIA_URL_KEY,
      keyFile: values.DAMS_MEDIA_URL_KEY_FILE ? path.resolve(values.DAMS_MEDIA_URL_KEY_FILE) : undefined,
      legacyFile: path.join(dataDir, "media-url.key"),
      ttlSeconds: values.DAMS_MEDIA_URL_TTL_SECONDS,
    },
    channels: { allowPrivate: values.DAMS_CHANNEL_ALLOW_PRIVATE },
    channelCredentials: {
      key: values.DAMS_CHANNEL_CREDENTIALS_KEY,
      keyFile: values.DAMS_CHANNEL_CREDENTIALS_KEY_FILE
        ? path.resolve(values.DAMS_CHANNEL_CREDENTIALS_KEY_FILE)
        : undefined,
    },
  };
}
