import { z } from "zod";

export const defaultLibraryQuery = z.object({
  path: z.string().min(1).max(300).describe("/frontend/{library} or /frontend/{library}/{folderId}"),
});
export const defaultLibrarySchema = z
  .object({ libraryId: z.string(), folderId: z.string().nullable(), path: z.string() })
  .meta({ id: "DefaultLibrary" });
