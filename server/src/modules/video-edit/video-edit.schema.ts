import { z } from "zod";
import { pageQuery } from "../../http/envelope.js";
import { draftEdlSchema, edlSchema } from "./edl.schema.js";

/** The EDL of a render (at least one clip), as a named component of the OpenAPI document. */
export const edlBody = edlSchema.meta({ id: "VideoEdl", description: "an edit decision list (docs/video-editor.md)" });
/** The EDL of a project as it is autosaved (it may have no clip yet). */
export const draftEdlBody = draftEdlSchema.meta({ id: "VideoEdlDraft" });

export const projectKind = z.enum(["video", "slideshow"]).describe("the video editor, or the image-to-video editor");

export const idParams = z.object({ id: z.uuid() });
export const projectsQuery = pageQuery.pick({ page: true, size: true });
export const createProjectBody = z.object({ kind: projectKind.default("video"), edl: draftEdlBody });
export const saveProjectBody = z.object({
  edl: draftEdlBody,
  revision: z.number().int().min(1).describe("the revision this save is based on; 409 when the project moved on"),
});

const storyRef = z.object({ libraryId: z.string(), storyId: z.string() });

const projectFields = {
  id: z.string(),
  kind: projectKind,
  title: z.string(),
  revision: z.number().int(),
  story: storyRef.nullable().describe("the story it was last saved as"),
  createdAt: z.string(),
  updatedAt: z.string(),
};
export const projectSummarySchema = z.object(projectFields);
export const projectSchema = z.object({ ...projectFields, edl: draftEdlBody });

export const startRenderBody = z.object({
  edl: edlBody,
  projectId: z.uuid().nullish().describe("the project the EDL comes from (the story it makes is linked to it)"),
});

export const renderSchema = z.object({
  id: z.string(),
  projectId: z.string().nullable(),
  state: z.enum(["queued", "running", "done", "failed", "cancelled"]),
  progress: z.number().int().min(0).max(100),
  error: z.string().nullable().describe("why the render failed (a source that does not decode…)"),
  videoUrl: z.string().describe("the MP4 once done: the URL the editor replies with"),
  method: z.enum(["copy", "encode"]).nullable().describe("copy: cut without re-encoding"),
  reason: z.string().nullable().describe("why it was re-encoded rather than copied"),
  durationSeconds: z.number().nullable(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  size: z.number().int().nullable(),
  story: storyRef.nullable().describe("the story made of it"),
  createdAt: z.string(),
});

export const createStoryBody = z.object({
  videoUrl: z.string().trim().min(1).max(2000).describe("the render's URL, as the editor replied with it"),
  libraryId: z.string().min(1).max(100).default("material").describe("default: material (the video library)"),
  folderId: z.uuid().nullish(),
  title: z.string().max(500).nullish().describe("default: the EDL's title"),
  base: storyRef
    .nullish()
    .describe("the story being edited (it is saved as its next version): the sources are related to it"),
});

export const createdStorySchema = z.object({
  libraryId: z.string(),
  storyId: z.string(),
  versionNo: z.number().int(),
  renderId: z.string(),
});

export const storyEdlParams = z.object({ libraryId: z.string().min(1), storyId: z.string().min(1) });
export const storyEdlQuery = z.object({ versionNo: z.coerce.number().int().min(1).optional() });
