import type { Selectable } from "kysely";
import type { DialectAdapter } from "../../db/dialect/index.js";
import type { StoryFilesTable } from "../../db/schema.js";
import { readStoryTexts } from "../search/search-index.js";
import type { Gps, Story, StoryFile, StoryRow } from "./story-types.js";

/** A `stories` row as the API's story: the texts read through the search columns, booleans and JSON per dialect. */
export function storyFromRow(row: StoryRow, adapter: DialectAdapter): Story {
  // Every field written out, the texts too: a spread into this 35-property literal is a slow copy (story-view.ts).
  const { title, caption, authors, source, keywords, tags, theme, category, properties } = readStoryTexts(row, adapter);
  return {
    id: row.id,
    libraryId: row.library_id,
    folderId: row.folder_id,
    type: row.type,
    halfProduct: adapter.readBoolean(row.half_product),
    status: row.status,
    title,
    caption,
    authors,
    source,
    keywords,
    tags,
    theme,
    category,
    properties,
    oid: row.oid,
    versionNo: row.version_no,
    coverKey: row.cover_key,
    contentSha256: row.content_sha256,
    perceptualHash: row.perceptual_hash,
    width: row.width,
    height: row.height,
    duration: row.duration === null ? null : Number(row.duration),
    size: row.size === null ? null : Number(row.size),
    mime: row.mime,
    originalName: row.original_name,
    capturedAt: row.captured_at,
    gps: row.gps === null || row.gps === undefined ? null : adapter.readJson<Gps>(row.gps),
    processingState: row.processing_state,
    processingError: row.processing_error,
    createdBy: row.created_by,
    createdAt: row.created_at,
    updatedBy: row.updated_by,
    updatedAt: row.updated_at,
    revision: Number(row.revision),
  };
}

/** The original file of a story's version, as uploaded: its size in pixels is read later, by the media job. */
export function originalFile(
  storyId: string,
  versionNo: number,
  upload: { blobKey: string; mime: string; size: number },
): StoryFile {
  return {
    storyId,
    versionNo,
    role: "original",
    blobKey: upload.blobKey,
    mime: upload.mime,
    size: upload.size,
    width: null,
    height: null,
  };
}

/** A `story_files` row as a story file. */
export const toStoryFile = (row: Selectable<StoryFilesTable>): StoryFile => ({
  storyId: row.story_id,
  versionNo: row.version_no,
  role: row.role,
  blobKey: row.blob_key,
  mime: row.mime,
  size: Number(row.size),
  width: row.width,
  height: row.height,
});
