import { z } from "zod";
import { DELIVERY_STATES } from "./deliveries.repository.js";

const time = z.iso.datetime({ offset: true });

export const publishBody = z
  .object({
    channel: z.string().trim().max(200).nullable().optional().describe("a free-text channel note (older clients)"),
    note: z.string().max(2000).nullable().optional(),
    channels: z.array(z.uuid()).max(50).optional().describe("the channels (ids) to deliver the story to"),
    publishAt: time.nullable().optional().describe("deliver not before this time"),
    embargoUntil: time
      .nullable()
      .optional()
      .describe("no channel receives the story before this time; null lifts the embargo, absent keeps it"),
  })
  .default({});
export const withdrawBody = z
  .object({
    channels: z
      .array(z.uuid())
      .max(50)
      .optional()
      .describe("the channels to send the kill to (default: every channel it went to)"),
  })
  .default({});

export const deliverySchema = z
  .object({
    id: z.string().describe("the delivery id: the same on every attempt, sent as X-Dams-Delivery"),
    channelId: z.string(),
    channelName: z.string().nullable(),
    libraryId: z.string(),
    storyId: z.string(),
    storyTitle: z.string(),
    versionNo: z.number().int(),
    action: z.enum(["publish", "kill"]),
    state: z.enum(DELIVERY_STATES),
    attempts: z.number().int(),
    lastError: z.string().nullable(),
    jobId: z.string().nullable(),
    notBefore: z.string().nullable(),
    startedAt: z.string().nullable(),
    finishedAt: z.string().nullable(),
    durationMs: z.number().int().nullable(),
    createdBy: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "Delivery" });

const createdDelivery = deliverySchema.omit({ channelName: true });

export const publishRecordSchema = z
  .object({
    id: z.string(),
    libraryId: z.string(),
    storyId: z.string(),
    versionNo: z.number().int(),
    channel: z.string().nullable(),
    note: z.string().nullable(),
    status: z.string(),
    publishedBy: z.string().nullable(),
    publishedAt: z.string(),
    deliveries: z.array(createdDelivery),
    embargoUntil: z.string().nullable(),
  })
  .meta({ id: "PublishRecord" });

export const storyDeliveriesSchema = z
  .object({ embargoUntil: z.string().nullable(), deliveries: z.array(deliverySchema) })
  .meta({ id: "StoryDeliveries" });

export const deliveryListQuery = z.object({
  page: z.coerce.number().int().min(0).default(0),
  size: z.coerce.number().int().min(1).max(200).default(20),
  keyword: z.string().max(200).optional().describe("part of the story title"),
  state: z
    .string()
    .optional()
    .transform((value) => (value ? value.split(",").filter(Boolean) : undefined))
    .pipe(z.array(z.enum(DELIVERY_STATES)).optional())
    .describe("comma-separated states"),
  channelId: z.uuid().optional(),
  storyId: z.uuid().optional(),
});

export const deliveryIdParams = z.object({ id: z.uuid() });

export const channelStatsSchema = z
  .object({
    channelId: z.string(),
    channelName: z.string(),
    total: z.number().int(),
    succeeded: z.number().int(),
    failed: z.number().int(),
    open: z.number().int(),
    successRate: z.number().nullable().describe("succeeded / (succeeded + failed); null before any finished"),
    lastError: z.string().nullable(),
    lastErrorAt: z.string().nullable(),
    lastState: z.enum(DELIVERY_STATES).nullable().describe("the newest delivery's state"),
    lastAt: z.string().nullable().describe("when the newest delivery last changed"),
  })
  .meta({ id: "ChannelDeliveryStats" });

const storyRef = z.object({ libraryId: z.string().min(1).max(100), storyId: z.uuid() });
const storyRefs = z.array(storyRef).min(1).max(200).describe("the selected stories, at most 200");

export const batchPublishBody = z.object({
  stories: storyRefs,
  channels: z.array(z.uuid()).min(1).max(50).describe("the channels (ids) to deliver each story to"),
  publishAt: time.nullable().optional().describe("deliver not before this time"),
});

export const batchPublishResultSchema = z
  .object({
    libraryId: z.string(),
    storyId: z.string(),
    title: z.string().nullable().describe("null when the story cannot be read"),
    ok: z.boolean(),
    deliveryIds: z.array(z.string()),
    code: z.string().nullable().describe("why it was refused: embargoed, not_committed, forbidden, not_found…"),
    message: z.string().nullable(),
    embargoUntil: z.string().nullable().describe("an embargoed story's end"),
  })
  .meta({ id: "BatchPublishResult" });

export const deliveredCountsBody = z.object({ stories: storyRefs });
export const deliveredCountSchema = z
  .object({
    channelId: z.string(),
    stories: z.number().int().describe("how many of the stories a publish delivery reached on this channel"),
  })
  .meta({ id: "DeliveredCount" });
