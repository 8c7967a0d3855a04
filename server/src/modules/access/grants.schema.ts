import { z } from "zod";
import { pageQuery } from "../../http/envelope.js";
import { LIBRARY_LEVELS } from "../auth/permissions.js";

export const grantSchema = z
  .object({
    id: z.string(),
    libraryId: z.string().describe("a library id, or `*` for every library"),
    roleId: z.string().nullable(),
    roleName: z.string().nullable(),
    userId: z.string().nullable(),
    username: z.string().nullable(),
    level: z.enum(LIBRARY_LEVELS),
    createdAt: z.string(),
  })
  .meta({ id: "LibraryGrant" });

export const grantListQuery = pageQuery.extend({ libraryId: z.string().max(200).optional() });

export const createGrantBody = z
  .object({
    libraryId: z
      .string()
      .regex(/^(\*|[A-Za-z0-9][A-Za-z0-9._-]{0,199})$/, "must be a library id or *")
      .describe("a library id, or `*` for every library"),
    roleId: z.string().min(1).max(100).optional(),
    userId: z.string().min(1).max(100).optional(),
    level: z.enum(LIBRARY_LEVELS),
  })
  .refine((body) => (body.roleId === undefined) !== (body.userId === undefined), {
    message: "give exactly one of roleId and userId",
    path: ["roleId"],
  });

export type CreateGrantBody = z.infer<typeof createGrantBody>;

export const grantIdParams = z.object({ id: z.uuid() });
