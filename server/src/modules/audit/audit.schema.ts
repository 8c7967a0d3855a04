import { z } from "zod";
import { MAX_PAGE_SIZE, RETENTION_DAYS } from "./audit.service.js";

const text = z.string().trim().min(1).max(200);

/** The filters of the log page (and of its export): each an exact match, the dates a half-open range. */
export const auditFilterSchema = z.object({
  actor: text.optional().describe("the username of who acted, exactly"),
  action: text.optional().describe("`<domain>.<verb>`, e.g. `story.delete`"),
  targetType: text.optional().describe("the kind of target: `story`, `route`, `user`…"),
  target: text.optional().describe("a target's id or its name, exactly"),
  result: z.enum(["ok", "denied", "failed"]).optional(),
  from: z.iso.datetime({ offset: true }).optional().describe("inclusive lower bound of the time, ISO-8601"),
  to: z.iso.datetime({ offset: true }).optional().describe("exclusive upper bound of the time, ISO-8601"),
});

export type AuditFilterInput = z.infer<typeof auditFilterSchema>;

export const logDisplayQuery = auditFilterSchema.extend({
  size: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(20),
  cursor: z.string().max(200).optional().describe("the `next` of the page before; absent for the newest page"),
});

const json = z.record(z.string(), z.unknown()).nullable();

export const auditRecordSchema = z
  .object({
    id: z.number().int(),
    at: z.string(),
    actorId: z.string().nullable(),
    actorName: z.string().nullable(),
    ip: z.string().nullable(),
    userAgent: z.string().nullable(),
    action: z.string(),
    targetType: z.string(),
    targetId: z.string().nullable(),
    targetLabel: z.string().nullable(),
    result: z.enum(["ok", "denied", "failed"]),
    before: json,
    after: json,
    details: json,
  })
  .meta({ id: "AuditRecord" });

export const auditPageSchema = z
  .object({
    content: z.array(auditRecordSchema),
    size: z.number().int(),
    next: z.string().nullable().describe("the cursor of the next (older) page; null on the last one"),
  })
  .meta({ id: "AuditPage" });

export const auditSettingsSchema = z
  .object({
    retentionDays: z.number().int().nullable().describe("rows older than this many days are pruned; null keeps all"),
    updatedBy: z.string().nullable(),
    updatedAt: z.string().nullable(),
  })
  .meta({ id: "AuditSettings" });

export const auditSettingsBody = z.object({
  retentionDays: z.number().int().min(RETENTION_DAYS.min).max(RETENTION_DAYS.max).nullable(),
});
