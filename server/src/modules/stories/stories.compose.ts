import type { Db } from "../../db/database.js";
import type { LibraryAccess } from "../access/library-access.js";
import type { BlobStore } from "../blobs/blob-store.js";
import { FoldersRepository } from "../folders/folders.repository.js";
import { FoldersService } from "../folders/folders.service.js";
import type { JobDefinition, JobEnqueuer } from "../jobs/job-types.js";
import { LibrariesRepository } from "../libraries/libraries.repository.js";
import { LibrariesService } from "../libraries/libraries.service.js";
import { StoriesRepository } from "./stories.repository.js";
import { type KeywordUse, type ProcessStoriesPayload, StoriesService } from "./stories.service.js";
import { StoryActionsRepository } from "./story-actions.repository.js";
import { StoryDownloads } from "./story-downloads.service.js";
import { StoryLinksRepository } from "./story-links.repository.js";
import { StoryLinksService } from "./story-links.service.js";
import type { PropertyDefinitions } from "./story-properties.js";
import { StoryQueries } from "./story-queries.service.js";
import type { SignMediaUrl } from "./story-view.js";

/** The name of the media processing job stories enqueue (its handler is the processing module's). */
export const PROCESS_STORIES_JOB = "stories.process";

export interface StoriesDependencies {
  db: Db;
  access: LibraryAccess;
  blobs: BlobStore;
  jobs: JobEnqueuer;
  /** Enqueued on commit, on upload completion and on a new version; named PROCESS_STORIES_JOB. */
  processingJob: JobDefinition<ProcessStoriesPayload>;
  /** Counts keywords applied to stories (the catalogue's KeywordService). */
  keywordUse: KeywordUse;
  /** Signs the media URLs of story views (MediaUrlSigner.url). */
  signMediaUrl: SignMediaUrl;
  /** The custom property definitions a commit's properties are checked against (the catalogue's PropertyService). */
  propertyDefinitions?: PropertyDefinitions;
  onBlobDeleteError?: (key: string, error: unknown) => void;
  onKeywordUseError?: (names: string[], error: unknown) => void;
}

export interface StoriesModule {
  libraries: LibrariesService;
  folders: FoldersService;
  stories: StoriesService;
  queries: StoryQueries;
  links: StoryLinksService;
  downloads: StoryDownloads;
}

/** Builds the libraries, folders and stories services once (called by app.ts). */
export function buildStories(deps: StoriesDependencies): StoriesModule {
  const { db, blobs } = deps;
  const librariesRepository = new LibrariesRepository(db);
  const libraries = new LibrariesService(librariesRepository, deps.access);
  const folders = new FoldersService(new FoldersRepository(db), librariesRepository);
  const storiesRepository = new StoriesRepository(db.kysely, db.adapter);
  const actions = new StoryActionsRepository(db.kysely, db.adapter);
  const queries = new StoryQueries(storiesRepository, actions, libraries, deps.signMediaUrl);
  const stories = new StoriesService({
    db,
    stories: storiesRepository,
    actions,
    libraries,
    folders,
    jobs: deps.jobs,
    processingJob: deps.processingJob,
    blobs,
    keywordUse: deps.keywordUse,
    propertyDefinitions: deps.propertyDefinitions,
    onBlobDeleteError: deps.onBlobDeleteError,
    onKeywordUseError: deps.onKeywordUseError,
  });
  const links = new StoryLinksService({
    db,
    stories: storiesRepository,
    links: new StoryLinksRepository(db.kysely),
    actions,
    queries,
    libraries,
    folders,
  });
  const downloads = new StoryDownloads(storiesRepository, actions, blobs);
  return { libraries, folders, stories, queries, links, downloads };
}
