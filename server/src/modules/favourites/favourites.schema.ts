import { z } from "zod";
import { pageQuery } from "../../http/envelope.js";
import { libraryIdSchema } from "../libraries/libraries.schema.js";
import { storySchema } from "../stories/stories.schema.js";

export const favoriteBody = z.object({
  libraryId: libraryIdSchema,
  storyId: z.uuid(),
  type: z.string().trim().min(1).max(50).optional().describe("default: the story's type"),
});
export const favoriteDeleteQuery = z.object({ libraryId: libraryIdSchema, storyId: z.uuid() });
export const favoriteListQuery = pageQuery.omit({ keyword: true }).extend({
  libraryId: libraryIdSchema.optional(),
  storyId: z.uuid().optional(),
  type: z.string().max(50).optional(),
});
export const favoriteSchema = z
  .object({ libraryId: z.string(), storyId: z.string(), type: z.string(), createdAt: z.string(), story: storySchema })
  .meta({ id: "Favorite" });
