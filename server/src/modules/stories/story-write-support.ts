import type { Kysely } from "kysely";
import type { Db } from "../../db/database.js";
import type { Database } from "../../db/schema.js";
import { NotFound } from "../../http/errors.js";
import type { BlobStore } from "../blobs/blob-store.js";
import type { FoldersService } from "../folders/folders.service.js";
import type { JobDefinition, JobEnqueuer } from "../jobs/job-types.js";
import type { LibrariesService } from "../libraries/libraries.service.js";
import type { StoriesRepository } from "./stories.repository.js";
import type { NewStoryAction, StoryActionsRepository } from "./story-actions.repository.js";
import type { PropertyDefinitions } from "./story-properties.js";
import type { Actor, MediaType, Story, StoryMetadata } from "./story-types.js";

/** Payload of the media processing job: ids only, the handler reloads the stories. */
export interface ProcessStoriesPayload {
  ids: string[];
}

/**
 * Counts keywords as they are applied to stories, so the catalogue can list
 * the most used first (`/keyword/listByOrder`). The catalogue's
 * `KeywordService` is the one the server runs with; it creates the keywords
 * it lacks.
 */
export interface KeywordUse {
  /** One use of each distinct name (any case). */
  recordUse(names: string[]): Promise<void>;
}

export interface StoriesServiceDependencies {
  db: Db;
  stories: StoriesRepository;
  actions: StoryActionsRepository;
  libraries: LibrariesService;
  folders: FoldersService;
  jobs: JobEnqueuer;
  /** The media engineer's job; enqueued on commit (and on upload when asked). */
  processingJob: JobDefinition<ProcessStoriesPayload>;
  blobs: BlobStore;
  keywordUse: KeywordUse;
  /** Checks a commit's custom properties; without it they are stored unchecked. */
  propertyDefinitions?: PropertyDefinitions;
  clock?: () => Date;
  onBlobDeleteError?: (key: string, error: unknown) => void;
  /** A count that could not be written (the story's change stands): for the log. */
  onKeywordUseError?: (names: string[], error: unknown) => void;
}

/** A finished upload, as the upload module hands it over. */
export interface UploadedOriginal {
  userId: string;
  libraryId: string;
  folderId?: string | null;
  type: MediaType;
  blobKey: string;
  sha256: string;
  size: number;
  mime: string;
  originalName: string;
  metadata?: StoryMetadata;
}

export interface IngestOptions {
  /**
   * Runs inside the transaction that writes the story, after its rows: the
   * upload module writes its own rows here (the blob's), so both exist
   * together or not at all. Throwing rolls everything back.
   */
  withinTransaction?: (
    trx: Kysely<Database>,
    story: { id: string; libraryId: string; versionNo: number },
  ) => Promise<void>;
  /** Where the upload came from, for the story action. */
  ip?: string | null;
  /** Enqueue media processing now rather than on commit. */
  enqueueProcessing?: boolean;
}

export const HEX64 = /^[0-9a-f]{64}$/;

/** What the story write services share: the clock, transactions, the action record and the processing job. */
export class StoryWriteSupport {
  constructor(private readonly deps: StoriesServiceDependencies) {}

  now(): string {
    return (this.deps.clock?.() ?? new Date()).toISOString();
  }

  /** Runs `work` in the caller's transaction when given, else in a new one. */
  async transaction<T>(given: Kysely<Database> | undefined, work: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
    if (given) return work(given);
    return this.deps.db.kysely.transaction().execute(work);
  }

  /** Builds story actions of `actor` (null: the system) on `story`. */
  action(actor: Pick<Actor, "id" | "username" | "ip"> | null, story: Pick<Story, "libraryId" | "id">) {
    return (action: NewStoryAction["action"], details?: Record<string, unknown>): NewStoryAction => ({
      libraryId: story.libraryId,
      storyId: story.id,
      userId: actor?.id ?? null,
      username: actor?.username ?? null,
      action,
      ip: actor?.ip ?? null,
      details,
    });
  }

  /** The story, when it is in this library; NotFound otherwise (ids of other libraries do not leak). */
  async require(libraryId: string, storyId: string): Promise<Story> {
    const story = await this.deps.stories.find(storyId);
    if (!story || story.libraryId !== libraryId) throw new NotFound(`story ${storyId} is not in library ${libraryId}`);
    return story;
  }

  /**
   * Counts the keywords applied to stories: one list per story, each holding
   * the keywords that story gained. Runs after the story's transaction (the
   * catalogue writes in a transaction of its own, and SQLite has one
   * connection); a failure is reported, not thrown, because the story's change
   * is already committed and a use count is not worth an error for it.
   */
  async countKeywordUse(perStory: string[][]): Promise<void> {
    for (const names of perStory) {
      if (names.length === 0) continue;
      try {
        await this.deps.keywordUse.recordUse(names);
      } catch (error) {
        this.deps.onKeywordUseError?.(names, error);
      }
    }
  }

  /** One job per story, so each story's progress and failure are its own. */
  async enqueueProcessing(trx: Kysely<Database>, ids: string[]): Promise<void> {
    for (const id of ids) {
      await this.deps.jobs.enqueue(this.deps.processingJob, { ids: [id] }, { transaction: trx, storyId: id });
    }
  }
}

/** The keywords of `next` that `current` lacks (compared in any case, as the catalogue does). */
export function addedKeywords(current: readonly string[], next: readonly string[] | undefined): string[] {
  if (!next) return [];
  const had = new Set(current.map((name) => name.trim().toLowerCase()));
  return next.filter((name) => name.trim() !== "" && !had.has(name.trim().toLowerCase()));
}
