import { z } from "zod";

const STORY_TYPES = ["photo", "video", "audio", "composite"] as const;

export const storageQuery = z.object({
  days: z.coerce.number().int().min(1).max(366).default(30).describe("the growth chart's days, up to today (UTC)"),
});

const amount = { files: z.number().int(), bytes: z.number().int() };

export const storageMonitorSchema = z
  .object({
    totals: z
      .object({
        stories: z.number().int(),
        ...amount,
        original: z.object(amount).describe("the current versions' originals"),
        rendition: z.object(amount).describe("thumbnails, previews, proxies… of the current versions"),
        version: z.object(amount).describe("every file of older versions"),
      })
      .describe("the whole store"),
    byLibrary: z.array(
      z.object({
        libraryId: z.string(),
        libraryName: z.string().nullable(),
        stories: z.number().int(),
        ...amount,
        original: z.number().int().describe("bytes"),
        rendition: z.number().int().describe("bytes"),
        version: z.number().int().describe("bytes"),
        quotaBytes: z.number().nullable().describe("the library's quota (storage settings); null: no limit"),
      }),
    ),
    byType: z.array(z.object({ type: z.enum(STORY_TYPES), stories: z.number().int(), ...amount })),
    growth: z.array(z.object({ day: z.string(), ...amount })).describe("files and bytes added per day, oldest first"),
    volumes: z
      .array(
        z.object({
          name: z.string().describe("what lives there: data (database, uploads) or blobs"),
          path: z.string(),
          totalBytes: z.number().int(),
          freeBytes: z.number().int().describe("available to the server's user"),
        }),
      )
      .describe("the local volumes (fs.statfs); blobs in S3 have none"),
    sweeper: z
      .object({
        finishedAt: z.string(),
        blobsScanned: z.number().int(),
        orphansDeleted: z.number().int().describe("stored files no story or registry row pointed at, older than a day"),
        orphansYoung: z.number().int().describe("such files kept: younger than a day (an upload may be finishing)"),
        blobsMissing: z
          .number()
          .int()
          .describe("registry rows whose file is missing (never deleted: a person decides)"),
        missingKeys: z.array(z.string()).describe("the first 20 of them"),
        targets: z
          .array(
            z.object({
              targetId: z.string().describe("builtin: the built-in storage"),
              name: z.string().describe("the target's name; empty for the built-in storage"),
              scanned: z.number().int(),
              deleted: z.number().int(),
              young: z.number().int(),
              moving: z
                .number()
                .int()
                .describe("copies of registered files kept because a move is on its way to this target"),
              missing: z.number().int().describe("registered files recorded in this target whose file is missing"),
              error: z
                .object({
                  reason: z.enum(["unreachable", "overlaps", "failed"]),
                  message: z.string().describe("the store's message"),
                })
                .nullable()
                .describe(
                  "why the target was not (fully) swept: it could not be reached, its folder or prefix lies inside another target's, or another failure",
                ),
              sameAs: z
                .string()
                .nullable()
                .describe("the target naming the same place, whose walk covered this one (its figures are there)"),
            }),
          )
          .describe("the sweeper's figures per storage target, the built-in storage first (empty in older reports)"),
        abandonedUploads: z.number().int(),
        diskTrashPurged: z.number().int(),
        outgoingCopiesDeleted: z.number().int(),
      })
      .nullable()
      .describe("the orphan sweeper's last report (the maintenance job, every 6 hours), null before its first run"),
  })
  .meta({ id: "StorageMonitor" });

export type StorageMonitorView = z.infer<typeof storageMonitorSchema>;

const STORY_STATUSES = ["draft", "committed", "published"] as const;

export const dataQuery = z.object({
  days: z.coerce
    .number()
    .int()
    .min(1)
    .max(366)
    .default(30)
    .describe("the period's days, up to today (UTC): per-day charts, top authors and sources"),
});

const named = z.object({ name: z.string(), stories: z.number().int() });

export const dataMonitorSchema = z
  .object({
    stories: z.number().int().describe("every story, now"),
    byType: z.array(z.object({ type: z.enum(STORY_TYPES), stories: z.number().int() })),
    byStatus: z.array(z.object({ status: z.enum(STORY_STATUSES), stories: z.number().int() })),
    byLibrary: z.array(
      z.object({ libraryId: z.string(), libraryName: z.string().nullable(), stories: z.number().int() }),
    ),
    perDay: z
      .array(
        z.object({
          day: z.string().describe("YYYY-MM-DD (UTC)"),
          stories: z.number().int().describe("stories made that day that still exist"),
          uploads: z.number().int().describe("stories created that day (the action trail; deleted ones too)"),
          commits: z.number().int().describe("drafts committed that day"),
        }),
      )
      .describe("every day of the period, oldest first"),
    topAuthors: z.array(named).describe("the period's stories' authors, most stories first (at most 10)"),
    topSources: z.array(named).describe("the period's stories' sources, most stories first (at most 10)"),
  })
  .meta({ id: "DataMonitor" });

export type DataMonitorView = z.infer<typeof dataMonitorSchema>;
