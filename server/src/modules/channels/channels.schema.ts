import { z } from "zod";
import { CHANNEL_FORMATS, CHANNEL_KINDS, MAPPING_SOURCE, MAPPING_TARGETS } from "../../shared/channels.js";

export {
  CHANNEL_FORMATS,
  CHANNEL_KINDS,
  type ChannelFormat,
  type ChannelKind,
  CREDENTIAL_FIELDS,
  MAPPING_SOURCE,
  MAPPING_TARGETS,
} from "../../shared/channels.js";

/** The story types a channel names a download preset for (presets exist for these). */
export const PRESET_STORY_TYPES = ["photo", "video", "audio"] as const;
export type PresetStoryType = (typeof PRESET_STORY_TYPES)[number];
export type ChannelPresets = Partial<Record<PresetStoryType, string>>;

const host = z
  .string()
  .trim()
  .min(1)
  .max(253)
  .regex(/^[A-Za-z0-9.:[\]-]+$/, "a host name or IP address");
const port = z.number().int().min(1).max(65_535);
/** Every kind: the largest file the receiver takes, in MB (10^6 bytes); a larger one fails its delivery with its size. */
const maxFileMb = z
  .number()
  .int()
  .min(1)
  .max(1_000_000)
  .optional()
  .describe(
    "the largest file (rendition or original) sent, in MB of 10^6 bytes; a larger one is refused with its size",
  );

export const httpSettings = z.object({
  url: z
    .url({ protocol: /^https?$/ })
    .max(2000)
    .describe("where items are POSTed (http or https); private addresses need DAMS_CHANNEL_ALLOW_PRIVATE"),
  timeoutMs: z.number().int().min(1000).max(120_000).default(15_000),
  signatureHeader: z
    .string()
    .regex(/^[A-Za-z][A-Za-z0-9-]{0,63}$/)
    .default("X-Dams-Signature")
    .describe("the header that carries `sha256=<hex HMAC-SHA256 of the body>` when a secret is set"),
  sendFiles: z.boolean().default(true).describe("POST the renditions before the item"),
  maxFileMb,
});
export const folderSettings = z.object({
  path: z.string().trim().min(2).max(1000).startsWith("/", "an absolute path").describe("a directory on the server"),
  maxFileMb,
});
export const sftpSettings = z.object({
  host,
  port: port.default(22),
  username: z.string().trim().min(1).max(200),
  directory: z.string().trim().min(1).max(1000).default("."),
  hostKeySha256: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9+/=]{43,44}$/, "the host key's SHA-256 fingerprint, base64")
    .optional()
    .describe("when set, a server with another host key is refused"),
  timeoutMs: z.number().int().min(1000).max(120_000).default(15_000),
  maxFileMb,
});
export const s3Settings = z.object({
  endpoint: z
    .url({ protocol: /^https?$/ })
    .max(2000)
    .optional(),
  region: z.string().trim().min(1).max(100).default("us-east-1"),
  bucket: z.string().trim().min(3).max(63),
  prefix: z.string().trim().max(500).default(""),
  forcePathStyle: z.boolean().default(true),
  maxFileMb,
});
export const emailSettings = z.object({
  host,
  port: port.default(587),
  secure: z.boolean().default(false).describe("TLS from the start (port 465); otherwise STARTTLS when offered"),
  requireTls: z.boolean().default(false),
  from: z.email().max(320),
  to: z.array(z.email().max(320)).min(1).max(50),
  attachFiles: z.boolean().default(true),
  timeoutMs: z.number().int().min(1000).max(120_000).default(15_000),
  maxFileMb,
});

export type HttpSettings = z.infer<typeof httpSettings>;
export type FolderSettings = z.infer<typeof folderSettings>;
export type SftpSettings = z.infer<typeof sftpSettings>;
export type S3Settings = z.infer<typeof s3Settings>;
export type EmailSettings = z.infer<typeof emailSettings>;

export const SETTINGS_OF = {
  http: httpSettings,
  folder: folderSettings,
  sftp: sftpSettings,
  s3: s3Settings,
  email: emailSettings,
} as const;

export type ChannelSettings =
  | { kind: "http"; settings: HttpSettings }
  | { kind: "folder"; settings: FolderSettings }
  | { kind: "sftp"; settings: SftpSettings }
  | { kind: "s3"; settings: S3Settings }
  | { kind: "email"; settings: EmailSettings };

const common = {
  name: z.string().trim().min(1).max(100),
  format: z.enum(CHANNEL_FORMATS).describe("ninjs (IPTC JSON), newsml (NewsML-G2 XML) or original (+ XMP sidecar)"),
  enabled: z.boolean().default(true),
  presets: z
    .object({
      photo: z.uuid().nullable().optional(),
      video: z.uuid().nullable().optional(),
      audio: z.uuid().nullable().optional(),
    })
    .default({})
    .describe("the download preset delivered per story type (its own watermark included); none: the original")
    .meta({ id: "ChannelPresets" }),
  fieldMapping: z
    .partialRecord(z.enum(MAPPING_TARGETS), z.string().regex(MAPPING_SOURCE, "a story field or properties.<name>"))
    .default({})
    .describe("which story field fills each field of the item (default: headline ← title, description ← caption…)"),
  credentials: z
    .record(z.string(), z.string().max(20_000).nullable())
    .optional()
    .describe("write-only: a value sets a field, null clears it, an absent field is kept"),
};

export const channelInput = z
  .discriminatedUnion("kind", [
    z.object({ kind: z.literal("http"), settings: httpSettings, ...common }),
    z.object({ kind: z.literal("folder"), settings: folderSettings, ...common }),
    z.object({ kind: z.literal("sftp"), settings: sftpSettings, ...common }),
    z.object({ kind: z.literal("s3"), settings: s3Settings, ...common }),
    z.object({ kind: z.literal("email"), settings: emailSettings, ...common }),
  ])
  .meta({ id: "ChannelWrite" });
export type ChannelInput = z.infer<typeof channelInput>;

export const channelSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    kind: z.enum(CHANNEL_KINDS),
    format: z.enum(CHANNEL_FORMATS),
    enabled: z.boolean(),
    settings: z.record(z.string(), z.unknown()),
    fieldMapping: z.record(z.string(), z.string()),
    presets: z.object({ photo: z.string().optional(), video: z.string().optional(), audio: z.string().optional() }),
    credentialsSet: z.array(z.string()).describe("which credential fields hold a value (the values never leave)"),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "Channel" });

export const channelOptionSchema = z
  .object({ id: z.string(), name: z.string(), kind: z.enum(CHANNEL_KINDS), format: z.enum(CHANNEL_FORMATS) })
  .meta({ id: "ChannelOption" });

export const channelIdParams = z.object({ id: z.uuid() });

export const channelTestResult = z
  .object({
    ok: z.boolean(),
    reason: z.string().describe("what was tried and what answered, in English"),
    durationMs: z.number().int(),
  })
  .meta({ id: "ChannelTestResult" });
