import type { Selectable } from "kysely";
import type { ProcessingState, StoriesTable, StoryStatus, StoryType } from "../../db/schema.js";
import type { StoryTexts } from "../search/search-index.js";

export { STORY_STATUSES, STORY_TYPES } from "../../db/schema.js";
/** Types that carry a media file (a composite groups other stories). */
export const MEDIA_TYPES = ["photo", "video", "audio"] as const satisfies readonly StoryType[];
export type MediaType = (typeof MEDIA_TYPES)[number];
export const PROCESSING_STATES = [
  "none",
  "queued",
  "running",
  "done",
  "failed",
] as const satisfies readonly ProcessingState[];

export type StoryRow = Selectable<StoriesTable>;

export interface Gps {
  latitude: number;
  longitude: number;
  altitude?: number;
}

export type { Actor } from "../auth/actor.js";

/** A story as repositories hand it to services (JSON and booleans decoded). */
export interface Story extends StoryTexts {
  id: string;
  libraryId: string;
  folderId: string | null;
  type: StoryType;
  halfProduct: boolean;
  status: StoryStatus;
  oid: string;
  versionNo: number;
  coverKey: string | null;
  contentSha256: string | null;
  perceptualHash: string | null;
  width: number | null;
  height: number | null;
  duration: number | null;
  size: number | null;
  mime: string | null;
  originalName: string | null;
  capturedAt: string | null;
  gps: Gps | null;
  processingState: ProcessingState;
  processingError: string | null;
  createdBy: string | null;
  createdAt: string;
  updatedBy: string | null;
  updatedAt: string;
  /** One more with every change of the metadata: the story's ETag, an edit's If-Match. */
  revision: number;
}

export interface StoryFile {
  storyId: string;
  versionNo: number;
  role: string;
  blobKey: string;
  mime: string;
  size: number;
  width: number | null;
  height: number | null;
}

export interface StoryVersion {
  storyId: string;
  versionNo: number;
  oid: string;
  blobKey: string | null;
  sha256: string | null;
  size: number | null;
  mime: string | null;
  originalName: string | null;
  note: string | null;
  createdBy: string | null;
  createdAt: string;
}

export { IPTC_TEXT_PROPERTIES } from "../../shared/iptc.js";

/** The editorial fields a user sets (create, edit, commit). */
export interface StoryMetadata {
  title?: string;
  caption?: string;
  authors?: string[];
  source?: string | null;
  keywords?: string[];
  tags?: string[];
  theme?: string | null;
  category?: string | null;
  halfProduct?: boolean;
  /** ISO-8601; null clears it. */
  capturedAt?: string | null;
  /** Merged into the story's properties; a null value removes the key. `lastVersion` is the server's. */
  properties?: Record<string, unknown>;
}
