import { z } from "zod";
import { LIBRARY_LEVELS } from "../auth/permissions.js";

export const LIBRARY_KINDS = ["default", "download", "personal", "department", "publish"] as const;

export const libraryIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/, "must be a library id")
  .describe("a library id such as `product`");

export const librarySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    kind: z.enum(LIBRARY_KINDS),
    description: z.string().nullable(),
    sort: z.number().int(),
    archivedAt: z.string().nullable().describe("when it was archived (read-only, no new stories), or null"),
    level: z.enum(LIBRARY_LEVELS).describe("the caller's level on the library"),
  })
  .meta({ id: "Library" });

export const libraryParams = z.object({ libraryId: libraryIdSchema });
