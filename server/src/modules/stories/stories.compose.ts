import type { Db } from "../../db/database.js";
import { AppError } from "../../http/errors.js";
import type { LibraryAccess } from "../access/library-access.js";
import type { BlobStore } from "../blobs/blob-store.js";
import { FoldersRepository } from "../folders/folders.repository.js";
import { FoldersService } from "../folders/folders.service.js";
import { type JobDefinition, type JobEnqueuer, PermanentJobError } from "../jobs/job-types.js";
import { LibrariesRepository } from "../libraries/libraries.repository.js";
import { LibrariesService } from "../libraries/libraries.service.js";
import { StoriesRepository } from "./stories.repository.js";
import { type ProcessStoriesPayload, StoriesService } from "./stories.service.js";
import { StoryActionsRepository } from "./story-actions.repository.js";
import { StoryDownloads } from "./story-downloads.service.js";
import { StoryLinksRepository } from "./story-links.repository.js";
import { StoryLinksService } from "./story-links.service.js";
import { StoryQueries } from "./story-queries.service.js";

export const PROCESS_STORIES_JOB = "stories.process";

/**
 * Stand-in until the media module registers the real handler under the same
 * name: the job is enqueued (so nothing is lost) and fails as not installed.
 */
export const processStoriesPlaceholder: JobDefinition<ProcessStoriesPayload> = {
  name: PROCESS_STORIES_JOB,
  maxAttempts: 1,
  async run() {
    throw new PermanentJobError("media processing is not installed yet");
  },
};

class NotConfigured extends AppError {
  constructor(what: string) {
    super(503, "service_unavailable", `${what} is not configured on this server yet`);
  }
}

/** Until the blob store lands in the composition root, calls that need bytes answer 503. */
const missingBlobStore: BlobStore = {
  kind: "local",
  put: async () => Promise.reject(new NotConfigured("the blob store")),
  putFile: async () => Promise.reject(new NotConfigured("the blob store")),
  get: async () => Promise.reject(new NotConfigured("the blob store")),
  stat: async () => Promise.reject(new NotConfigured("the blob store")),
  delete: async () => undefined,
  list: async function* () {
    yield* [];
    throw new NotConfigured("the blob store");
  },
  withLocalFile: async () => Promise.reject(new NotConfigured("the blob store")),
  presignedUrl: async () => null,
};

const missingJobQueue: JobEnqueuer = {
  enqueue: async () => Promise.reject(new NotConfigured("the job queue")),
};

export interface StoriesDependencies {
  db: Db;
  access: LibraryAccess;
  blobs?: BlobStore;
  jobs?: JobEnqueuer;
  processingJob?: JobDefinition<ProcessStoriesPayload>;
  onBlobDeleteError?: (key: string, error: unknown) => void;
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
  const { db } = deps;
  const blobs = deps.blobs ?? missingBlobStore;
  const librariesRepository = new LibrariesRepository(db);
  const libraries = new LibrariesService(librariesRepository, deps.access);
  const folders = new FoldersService(new FoldersRepository(db), librariesRepository);
  const storiesRepository = new StoriesRepository(db.kysely, db.adapter);
  const actions = new StoryActionsRepository(db.kysely, db.adapter);
  const queries = new StoryQueries(storiesRepository, actions, libraries);
  const stories = new StoriesService({
    db,
    stories: storiesRepository,
    actions,
    libraries,
    folders,
    jobs: deps.jobs ?? missingJobQueue,
    processingJob: deps.processingJob ?? processStoriesPlaceholder,
    blobs,
    onBlobDeleteError: deps.onBlobDeleteError,
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
