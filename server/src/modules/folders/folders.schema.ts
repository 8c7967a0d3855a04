import { z } from "zod";
import { libraryIdSchema } from "../libraries/libraries.schema.js";

const folderName = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .refine((name) => !/[/\\]/.test(name), "must not contain / or \\");

export const folderSchema = z
  .object({
    id: z.string(),
    libraryId: z.string(),
    parentId: z.string().nullable(),
    name: z.string(),
    sort: z.number().int(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "Folder" });

export type FolderNodeSchema = z.infer<typeof folderSchema> & { children: FolderNodeSchema[] };

export const folderNodeSchema: z.ZodType<FolderNodeSchema> = folderSchema
  .extend({ children: z.array(z.lazy(() => folderNodeSchema)) })
  .meta({ id: "FolderNode" });

export const folderTreeParams = z.object({ libraryId: libraryIdSchema });
export const folderParams = z.object({ libraryId: libraryIdSchema, folderId: z.uuid() });

export const createFolderBody = z.object({
  name: folderName,
  parentId: z.uuid().nullable().optional().describe("the parent folder; absent or null for the library's root"),
  sort: z.number().int().min(0).max(1_000_000).optional(),
});

export const updateFolderBody = z
  .object({
    name: folderName.optional().describe("a new name (rename)"),
    parentId: z.uuid().nullable().optional().describe("a new parent (move); null moves to the root"),
    sort: z.number().int().min(0).max(1_000_000).optional(),
  })
  .refine((body) => Object.keys(body).length > 0, { message: "give name, parentId or sort", path: ["name"] });
