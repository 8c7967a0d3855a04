import type { Db } from "../../db/database.js";
import type { AuditLog } from "../audit/audit-log.js";
import type { BlobStore } from "../blobs/blob-store.js";
import type { FoldersService } from "../folders/folders.service.js";
import type { JobEnqueuer, JobName } from "../jobs/job-types.js";
import type { LibrariesService } from "../libraries/libraries.service.js";
import type { OutgoingCopies } from "../outgoing/outgoing-copies.js";
import type { SearchModule } from "../search/search.compose.js";
import { CompositeTextQueries } from "./composite-text.service.js";
import { type KeywordUse, KeywordUseCounter } from "./keyword-use.js";
import { ProcessingQueue } from "./processing-queue.js";
import type { BlobRegistry, IngestUsers, PropertyEditCheck } from "./stories.dependencies.js";
import { StoriesRepository } from "./stories.repository.js";
import { StoriesService } from "./stories.service.js";
import { type RolePermissions, StoryAccess } from "./story-access.js";
import { StoryActionsRepository } from "./story-actions.repository.js";
import { StoryActionLog } from "./story-actions.service.js";
import { StoryDownloads } from "./story-downloads.service.js";
import type { StoryEventSink } from "./story-events.js";
import type { PropertyDefinitions } from "./story-properties.js";
import { StoryQueries } from "./story-queries.service.js";
import { StoryStatistics } from "./story-statistics.js";
import type { SignMediaUrl } from "./story-view.js";

/** The name of the media processing job stories enqueue (its handler is the processing module's). */
export const PROCESS_STORIES_JOB: JobName = "stories.process";

export interface StoriesDependencies {
  db: Db;
  /** The operation log every story change records itself in. */
  audit: AuditLog;
  libraries: LibrariesService;
  /** What a role allows (the access module's RolesService.permissionSet): draft ownership asks it. */
  rolePermissions: RolePermissions;
  folders: FoldersService;
  /** The accounts behind ingest calls (the users module's UsersService). */
  users: IngestUsers;
  blobs: BlobStore;
  /** The `blobs` rows of deleted stories' files (the blobs module's BlobsService). */
  blobRegistry: BlobRegistry;
  /** Enqueues the media processing job (PROCESS_STORIES_JOB) on commit, on upload completion and on a new version. */
  jobs: JobEnqueuer;
  /** The search index (told of every story write) and the search the lists run (search.compose.ts). */
  search: SearchModule;
  /** Counts keywords applied to stories (the catalogue's KeywordService). */
  keywordUse: KeywordUse;
  /** Signs the media URLs of story views (MediaUrlSigner.url). */
  signMediaUrl: SignMediaUrl;
  /** The custom property definitions a commit's properties are checked against (the catalogue's PropertyService). */
  propertyDefinitions?: PropertyDefinitions;
  /** Field-level access: refuses edits of properties the actor's role may not edit (the access module's). */
  propertyAccess?: PropertyEditCheck;
  /** Where commit, publish and added tags are written, in their transaction (the actions module's triggers). */
  events?: StoryEventSink;
  onBlobDeleteError?: (key: string, error: unknown) => void;
  /** Embeds a story's metadata into its original on the way out; its copies go with a deleted story. */
  outgoing?: Pick<OutgoingCopies, "file" | "forgetStory">;
  onKeywordUseError?: (names: string[], error: unknown) => void;
}

export interface StoriesModule {
  /** Every change to a story. */
  stories: StoriesService;
  /** Reads: lists, one story, versions, duplicates, counts. */
  queries: StoryQueries;
  /** The one "story in this library for this caller, or 404" check; forWrite authorises every story write. */
  access: StoryAccess;
  /** The story action trail, for the modules that hang off stories. */
  actions: StoryActionLog;
  downloads: StoryDownloads;
  /** The storage monitor's figures (GROUP BY over stories and story_files). */
  statistics: StoryStatistics;
  /** Composites' texts (issue 15): the editor's and the pages' reads. */
  texts: CompositeTextQueries;
}

/** Builds the stories services once (called by app.ts). */
export function buildStories(deps: StoriesDependencies): StoriesModule {
  const { db, blobs } = deps;
  const storiesRepository = new StoriesRepository(db.kysely, db.adapter, deps.search.index);
  const actionsRepository = new StoryActionsRepository(db.kysely, db.adapter);
  const access = new StoryAccess(storiesRepository, deps.libraries, deps.rolePermissions);
  const stories = new StoriesService({
    db,
    stories: storiesRepository,
    actions: actionsRepository,
    audit: deps.audit,
    access,
    folders: deps.folders,
    users: deps.users,
    processing: new ProcessingQueue(deps.jobs),
    keywords: new KeywordUseCounter(deps.keywordUse, deps.onKeywordUseError),
    blobs,
    blobRegistry: deps.blobRegistry,
    propertyDefinitions: deps.propertyDefinitions,
    propertyAccess: deps.propertyAccess,
    events: deps.events,
    onBlobDeleteError: deps.onBlobDeleteError,
    forgetOutgoing: deps.outgoing && ((storyId) => deps.outgoing!.forgetStory(storyId)),
  });
  const downloads = new StoryDownloads(storiesRepository, access, actionsRepository, blobs, deps.audit);
  downloads.outgoing = deps.outgoing;
  downloads.hiddenFor = deps.propertyAccess && ((user) => deps.propertyAccess!.hiddenFor(user));
  const queries = new StoryQueries(
    storiesRepository,
    access,
    deps.libraries,
    deps.signMediaUrl,
    deps.search.service,
    deps.propertyAccess ? (user) => deps.propertyAccess!.hiddenFor(user) : undefined,
  );
  return {
    stories,
    queries,
    texts: new CompositeTextQueries(db.kysely, queries, deps.libraries),
    access,
    actions: new StoryActionLog(actionsRepository, deps.libraries),
    statistics: new StoryStatistics(deps.db),
    downloads,
  };
}
