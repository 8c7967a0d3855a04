import { z } from "zod";
import { libraryIdSchema } from "../libraries/libraries.schema.js";

/** A path segment of ours: letters, digits, `.`, `_`, `-`, not starting with a dot (as blob keys). */
const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

const name = z.string().trim().min(1, "must not be empty").max(100);

export const TEST_REASONS = ["unreachable", "bad_credentials", "no_such_bucket", "not_writable", "failed"] as const;
export type TestReason = (typeof TEST_REASONS)[number];

const localInput = z.object({
  name,
  kind: z.literal("local"),
  directory: z
    .string()
    .trim()
    .min(1, "must not be empty")
    .max(100)
    .regex(SEGMENT, "a folder name of letters, digits, '.', '_' and '-', not starting with a dot")
    .describe("a folder under the data directory's targets/ (made when missing)"),
});

const s3Input = z.object({
  name,
  kind: z.literal("s3"),
  endpoint: z
    .url({ protocol: /^https?$/, error: "must be an http(s) URL" })
    .max(500)
    .nullish()
    .transform((value) => value ?? null)
    .describe("the S3 server's URL; absent for AWS itself"),
  region: z.string().trim().min(1).max(50).default("us-east-1"),
  bucket: z
    .string()
    .trim()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, "3-63 lower-case letters, digits, '.' and '-'"),
  prefix: z
    .string()
    .trim()
    .max(200)
    .refine((value) => value === "" || value.split("/").every((part) => SEGMENT.test(part)), {
      message: "folder names of letters, digits, '.', '_' and '-' separated by '/'",
    })
    .nullish()
    .transform((value) => (value ? value : null))
    .describe("keys go under this prefix of the bucket"),
  pathStyle: z.boolean().default(true).describe("path-style addressing (MinIO, Ceph RGW and most self-hosted servers)"),
  accessKeyId: z
    .string()
    .trim()
    .max(200)
    .nullish()
    .transform((value) => (value ? value : null)),
  secretAccessKey: z
    .string()
    .max(500)
    .nullish()
    .describe("write-only: a value sets it, null clears it, absent keeps it"),
});

export const targetInput = z.discriminatedUnion("kind", [localInput, s3Input]);
export type TargetInput = z.infer<typeof targetInput>;

export const targetIdParams = z.object({ id: z.string().min(1).max(64) });

export const targetSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    kind: z.enum(["local", "s3"]),
    builtIn: z.boolean().describe("the configured storage (DAMS_STORAGE): never edited or deleted"),
    isDefault: z.boolean().describe("where the new originals of libraries without a target of their own go"),
    directory: z.string().nullable(),
    endpoint: z.string().nullable(),
    region: z.string().nullable(),
    bucket: z.string().nullable(),
    prefix: z.string().nullable(),
    pathStyle: z.boolean().nullable(),
    accessKeyId: z.string().nullable(),
    secretSet: z.boolean().describe("whether a secret access key is stored (it is never returned)"),
    libraries: z.number().int().describe("libraries whose new originals go here"),
    files: z.number().int().describe("files stored here (null for the built-in storage: everything else)").nullable(),
    createTime: z.string().nullable(),
    updateTime: z.string().nullable(),
  })
  .meta({ id: "StorageTarget" });

export const targetTestResult = z
  .object({
    ok: z.boolean(),
    reason: z.enum(TEST_REASONS).nullable().describe("why it failed, as a code"),
    message: z.string().describe("what was tried and what answered, in English"),
    durationMs: z.number().int(),
  })
  .meta({ id: "StorageTargetTest" });
export type TargetTestResult = z.infer<typeof targetTestResult>;

export const MOVE_STATES = ["queued", "running", "succeeded", "failed"] as const;

export const moveSchema = z
  .object({
    id: z.string(),
    libraryId: z.string(),
    targetId: z.string(),
    targetName: z.string(),
    state: z.enum(MOVE_STATES),
    totalFiles: z.number().int(),
    movedFiles: z.number().int(),
    movedBytes: z.number().int(),
    error: z.string().nullable(),
    createTime: z.string(),
    finishTime: z.string().nullable(),
  })
  .meta({ id: "StorageMove" });

export const storageSettingsSchema = z
  .object({
    defaultTargetId: z.string().describe("where libraries without a target of their own put new originals"),
    targets: z.array(z.object({ id: z.string(), name: z.string(), kind: z.enum(["local", "s3"]) })),
    libraries: z.array(
      z.object({
        libraryId: z.string(),
        name: z.string(),
        bucketId: z.string().nullable().describe("its own target, or null: the default"),
        targetId: z.string().describe("where its new originals go now"),
        move: moveSchema.nullable().describe("its latest move"),
      }),
    ),
  })
  .meta({ id: "StorageSettings" });

export const targetChoiceBody = z.object({
  targetId: z.string().min(1).max(64).describe("a storage target's id (`builtin`: the built-in storage)"),
});
export const libraryTargetBody = z.object({
  targetId: z.string().min(1).max(64).nullable().describe("a storage target's id, or null: the default target"),
});
export const libraryParams = z.object({ libraryId: libraryIdSchema });
export const moveParams = z.object({ id: z.uuid() });
