import { z } from "zod";
import { libraryIdSchema } from "../libraries/libraries.schema.js";

const level = z.enum(["view", "download", "edit"]);

export const nodeIdParams = z.object({ id: z.uuid().describe("a disk folder or file") });
export const shareIdParams = z.object({ id: z.uuid().describe("a share of a disk item") });
export const userIdParams = z.object({ userId: z.uuid() });

export const quotaUsersQuery = z.object({
  keyword: z.string().trim().max(100).optional().describe("part of the user name or the name"),
  size: z.coerce.number().int().min(1).max(50).default(20),
});
export const quotaUserSchema = z
  .object({ id: z.string(), username: z.string(), name: z.string().nullable() })
  .meta({ id: "DiskQuotaUser" });

export const diskNodeSchema = z
  .object({
    id: z.string(),
    parentId: z.string().nullable().describe("the folder it is in; null at the owner's root"),
    kind: z.enum(["folder", "file"]),
    name: z.string(),
    size: z.number().describe("bytes (0 for a folder)"),
    mime: z.string().nullable().describe("the type found from the content; application/octet-stream when unknown"),
    ownerId: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
    trashedAt: z.string().nullable(),
    access: z.enum(["owner", "view", "download", "edit"]).describe("what the caller may do with it"),
  })
  .meta({ id: "DiskNode" });

export const diskListQuery = z.object({
  folderId: z.uuid().optional().describe("a folder of the caller's or shared with them; default: the caller's root"),
});
export const diskListSchema = z
  .object({
    folder: diskNodeSchema.nullable(),
    path: z.array(z.object({ id: z.string(), name: z.string() })).describe("from the top the caller may reach"),
    items: z.array(diskNodeSchema).describe("folders first, then files, by name"),
  })
  .meta({ id: "DiskList" });

export const diskUsageSchema = z
  .object({ usedBytes: z.number().describe("the trash included"), quotaBytes: z.number() })
  .meta({ id: "DiskUsage" });
export const quotaBody = z.object({
  quotaBytes: z
    .number()
    .int()
    .min(0)
    .max(2 ** 50)
    .describe("0 closes the disk for new files"),
});

const name = z.string().max(1000).describe("one path segment: no / or \\, not . or ..");
export const folderBody = z.object({ parentId: z.uuid().nullable().default(null), name });
export const nodePatchBody = z
  .object({ name: name.optional(), parentId: z.uuid().nullable().optional().describe("move into this folder") })
  .refine((body) => body.name !== undefined || body.parentId !== undefined, { message: "name or parentId" });

export const contentQuery = z.object({
  disposition: z.enum(["inline", "attachment"]).default("attachment").describe("inline: a preview (view access)"),
});

export const sendToLibraryBody = z.object({
  nodeIds: z.array(z.uuid()).min(1).max(100),
  libraryId: libraryIdSchema,
  folderId: z.uuid().nullable().optional(),
});
export const sentFileSchema = z
  .object({
    nodeId: z.string(),
    name: z.string(),
    story: z.object({ libraryId: z.string(), storyId: z.string(), versionNo: z.number() }).optional(),
    duplicates: z.array(z.object({ libraryId: z.string(), storyId: z.string(), title: z.string() })).optional(),
    error: z.object({ code: z.string(), msg: z.string() }).optional(),
  })
  .meta({ id: "DiskSentFile" });

export const fromStoryBody = z.object({
  libraryId: libraryIdSchema,
  storyId: z.uuid(),
  parentId: z.uuid().nullable().default(null).describe("the disk folder; default the caller's root"),
});

export const shareBody = z.object({
  grantee: z.discriminatedUnion("kind", [
    z.object({ kind: z.literal("user"), username: z.string().min(1).max(200) }),
    z.object({ kind: z.literal("role"), roleId: z.string().min(1).max(100) }),
    z.object({ kind: z.literal("everyone") }),
  ]),
  level,
});
export const diskShareSchema = z
  .object({
    id: z.string(),
    nodeId: z.string(),
    nodeName: z.string(),
    nodeKind: z.enum(["folder", "file"]),
    granteeKind: z.enum(["user", "role", "everyone"]),
    granteeId: z.string(),
    granteeName: z.string(),
    level,
    createdAt: z.string(),
  })
  .meta({ id: "DiskShare" });
export const sharedWithMeSchema = z
  .object({ shareId: z.string(), level, ownerName: z.string(), sharedAt: z.string(), node: diskNodeSchema })
  .meta({ id: "DiskSharedWithMe" });
export const diskSharesQuery = z.object({ nodeId: z.uuid().optional().describe("the shares of this item only") });
