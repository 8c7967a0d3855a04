import { z } from "zod";
import { libraryIdSchema } from "../libraries/libraries.schema.js";
import { storyParams, storySchema } from "../stories/stories.schema.js";

export const RELATION_TYPES = ["related", "derived", "same-event"] as const;
export type RelationType = (typeof RELATION_TYPES)[number];

export const relationSchema = z
  .object({
    id: z.string(),
    type: z.string(),
    direction: z.enum(["outgoing", "incoming"]),
    createdAt: z.string(),
    story: storySchema,
  })
  .meta({ id: "StoryRelation" });

export const relationIdParams = storyParams.extend({ relationId: z.uuid() });
export const createRelationBody = z.object({
  relatedLibraryId: libraryIdSchema,
  relatedStoryId: z.uuid(),
  type: z.enum(RELATION_TYPES).default("related"),
});
