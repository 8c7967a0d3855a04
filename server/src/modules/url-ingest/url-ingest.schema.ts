import { z } from "zod";
import { pageQuery } from "../../http/envelope.js";

export const fetchBody = z.object({
  url: z.string().trim().min(1).max(4000).describe("an http or https URL of an image, a video or an audio file"),
  libraryId: z.string().min(1).max(100).optional().describe("default: material"),
  folderId: z.uuid().nullish(),
  type: z
    .string()
    .max(20)
    .nullish()
    .describe("the kind expected: photo, video or audio (a different content is refused)"),
  suffix: z
    .string()
    .max(10)
    .regex(/^\.?[A-Za-z0-9]+$/)
    .nullish()
    .describe("the extension for the stored name when the URL has none"),
});

export type FetchBody = z.infer<typeof fetchBody>;

export const rateQuery = z.object({ url: z.string().min(1).max(4000) });

export const fetchesQuery = pageQuery.pick({ page: true, size: true });

export const fetchIdParams = z.object({ id: z.uuid() });

export const urlFetchSchema = z
  .object({
    id: z.string(),
    url: z.string(),
    libraryId: z.string(),
    folderId: z.string().nullable(),
    type: z.string().nullable(),
    state: z.enum(["queued", "running", "done", "failed", "cancelled"]),
    progress: z.number().int().min(0).max(100),
    bytes: z.number().int(),
    total: z
      .number()
      .int()
      .nullable()
      .describe(
        "from Content-Length; null when the server did not announce it (and while an HLS stream's segments arrive)",
      ),
    speed: z.number().int().describe("bytes per second"),
    error: z.string().nullable().describe("why it failed or was refused (English)"),
    errorCode: z
      .string()
      .nullable()
      .describe("the refusal's stable code (e.g. `fetch.address`), for showing it in the user's language"),
    errorParams: z
      .record(z.string(), z.union([z.string(), z.number()]))
      .nullable()
      .describe("the values the refusal names, with errorCode"),
    segmentsDone: z.number().int().nullable().describe("an HLS stream: segments fetched so far"),
    segmentsTotal: z.number().int().nullable().describe("an HLS stream: its segments (with the init segment)"),
    storyId: z.string().nullable().describe("the draft story made of the file, once done"),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "UrlFetch" });

export type UrlFetchView = z.infer<typeof urlFetchSchema>;
