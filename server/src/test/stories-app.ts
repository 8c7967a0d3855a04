import { createHash, randomBytes, randomUUID } from "node:crypto";
import path from "node:path";
import { Readable } from "node:stream";
import type { FastifyInstance } from "fastify";
import type { Db } from "../db/database.js";
import { API_PREFIX } from "../http/error-handler.js";
import { GrantsRepository } from "../modules/access/grants.repository.js";
import { LibraryAccess } from "../modules/access/library-access.js";
import { RolesRepository } from "../modules/access/roles.repository.js";
import { buildAudit } from "../modules/audit/audit.compose.js";
import { newOriginalKey } from "../modules/blobs/blob-keys.js";
import type { BlobStore } from "../modules/blobs/blob-store.js";
import { BlobsRepository } from "../modules/blobs/blobs.repository.js";
import { BlobsService } from "../modules/blobs/blobs.service.js";
import { LocalBlobStore } from "../modules/blobs/local-blob-store.js";
import { buildCatalogue } from "../modules/catalogue/catalogue.compose.js";
import { buildFolders } from "../modules/folders/folders.compose.js";
import { buildIngest } from "../modules/ingest/ingest.compose.js";
import type { IngestService } from "../modules/ingest/ingest.service.js";
import type { JobEnqueuer, JobState } from "../modules/jobs/job-types.js";
import { buildLibraries, buildLibrarySettings } from "../modules/libraries/libraries.compose.js";
import type { LibrarySettingsService } from "../modules/libraries/library-settings.service.js";
import { MediaUrlSigner } from "../modules/media-urls/media-url-signer.js";
import { buildSearch } from "../modules/search/search.compose.js";
import type { KeywordUse } from "../modules/stories/keyword-use.js";
import { buildStories, PROCESS_STORIES_JOB, type StoriesModule } from "../modules/stories/stories.compose.js";
import type { StoryInsert } from "../modules/stories/stories.repository.js";
import type { MediaType } from "../modules/stories/story-types.js";
import { StoryUsage } from "../modules/stories/story-usage.js";
import { buildUserSettings } from "../modules/user-settings/user-settings.compose.js";
import type { UserSettingsService } from "../modules/user-settings/user-settings.service.js";
import { UsersRepository } from "../modules/users/users.repository.js";
import { UsersService } from "../modules/users/users.service.js";
import { type DialectName, useTestApp } from "./dialects.js";
import type { TestPrincipal } from "./principals.js";

export interface StoriesTestContext {
  app: FastifyInstance;
  db: Db;
  /** The app's blob store: the real local store under the test's data dir. */
  blobs: LocalBlobStore;
  /**
   * The stories services over the same database, blob store and durable job
   * queue as the app, for the upload and media entry points the API does not
   * expose.
   */
  module: StoryServices;
  /** Where the app keeps its files (the test's data dir). */
  dataDir: string;
}

/** The stories services and the user settings, as app.ts builds them. */
export type StoryServices = StoriesModule & { settings: UserSettingsService; librarySettings: LibrarySettingsService };

/**
 * The stories services over `db`, built as app.ts builds them, for the entry
 * points the API does not expose (uploads, media jobs) and for tests that
 * swap a dependency (a failing keyword counter).
 */
export function buildStoryServices(
  db: Db,
  deps: {
    blobs: BlobStore;
    /** The app's jobs (app.jobs), whose handlers it registered. */
    jobs: JobEnqueuer;
    keywordUse?: KeywordUse;
    onKeywordUseError?: (names: string[], error: unknown) => void;
  },
): StoryServices {
  const search = buildSearch(db);
  const usage = new StoryUsage(db, search.index);
  const libraries = buildLibraries(db, new LibraryAccess(new GrantsRepository(db)));
  const folders = buildFolders(db, { libraries, usage });
  const users = new UsersService(new UsersRepository(db));
  // The app signs with its own key; these services' views are not served.
  const signer = new MediaUrlSigner(randomBytes(32), 600);
  const audit = buildAudit(db).log;
  const stories = buildStories({
    db,
    audit,
    search,
    libraries,
    rolePermissions: (roleId) =>
      roleId ? new RolesRepository(db).activePermissions(roleId) : Promise.resolve(new Map()),
    folders,
    users,
    blobs: deps.blobs,
    blobRegistry: new BlobsService(new BlobsRepository(db)),
    jobs: deps.jobs,
    keywordUse: deps.keywordUse ?? buildCatalogue(db, usage).keywords,
    onKeywordUseError: deps.onKeywordUseError,
    signMediaUrl: (claims) => signer.url(claims),
  });
  return {
    ...stories,
    settings: buildUserSettings(db, { libraries, folders, users }),
    librarySettings: buildLibrarySettings(db, { folders, usage, audit }),
  };
}

/** Quick polls and short back-offs, for tests that start the worker and wait for its jobs (deliveries, rules). */
export const FAST_JOBS_ENV = { DAMS_JOBS_POLL_MS: "50", DAMS_JOBS_BACKOFF_MS: "20", DAMS_JOBS_BACKOFF_MAX_MS: "100" };

/**
 * The app as the server builds it, on the real local blob store and the
 * durable job queue (the `jobs` table). Its in-process worker is not started
 * (`useTestApp` never calls `app.jobs.worker.start()`), so the media job
 * enqueued for a story stays queued instead of processing the fake bytes the
 * tests upload; a test that wants it run starts the worker itself.
 */
export function useStoriesApp(
  dialect: DialectName,
  options: { env?: Record<string, string> } = {},
): () => StoriesTestContext {
  let blobs: LocalBlobStore | undefined;
  const ctx = useTestApp(dialect, {
    env: options.env,
    seams: (_db, database) => {
      blobs = new LocalBlobStore(path.join(database.dataDir, "blobs"));
      return { blobStore: blobs };
    },
  });
  let module: StoryServices | undefined;
  return () => {
    const { app, db, config } = ctx();
    module ??= buildStoryServices(db, {
      blobs: blobs!,
      // The app's jobs, whose handlers it registered; only the app's worker runs them.
      jobs: app.jobs,
    });
    return { app, db, blobs: blobs!, module, dataDir: config.dataDir };
  };
}

/** The ingest command over the test's stories services, database and blob store, as app.ts builds it. */
export function ingestOf(ctx: StoriesTestContext): IngestService {
  return buildIngest({
    db: ctx.db,
    stories: ctx.module.stories,
    defaultLibraryOf: async (user) =>
      (typeof user === "string"
        ? await ctx.module.settings.defaultLibraryFor(user)
        : await ctx.module.settings.defaultLibrary(user)
      ).libraryId,
    newStoryRules: ctx.module.librarySettings,
    blobs: ctx.blobs,
    blobRegistry: new BlobsService(new BlobsRepository(ctx.db)),
    workDir: path.join(ctx.dataDir, "tmp", "ingest"),
  });
}

export function sha256(bytes: Buffer | string): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** What the upload module does on completion: store the bytes, then create the draft. */
export async function uploadStory(
  ctx: StoriesTestContext,
  who: TestPrincipal,
  input: {
    libraryId?: string;
    folderId?: string;
    type?: MediaType;
    bytes?: string | Buffer;
    name?: string;
    mime?: string;
    keywords?: string[];
  },
) {
  const bytes = Buffer.isBuffer(input.bytes) ? input.bytes : Buffer.from(input.bytes ?? `bytes ${randomUUID()}`);
  const blobKey = newOriginalKey();
  await ctx.blobs.put(blobKey, Readable.from([bytes]));
  return ctx.module.stories.createDraftFromUpload({
    userId: who.id,
    libraryId: input.libraryId ?? "product",
    folderId: input.folderId ?? null,
    type: input.type ?? "photo",
    blobKey,
    sha256: sha256(bytes),
    size: bytes.length,
    mime: input.mime ?? "image/jpeg",
    originalName: input.name ?? "台风.jpg",
    ...(input.keywords ? { metadata: { keywords: input.keywords } } : {}),
  });
}

/** Stores these bytes as a WebP thumbnail of the story, blob first and then its file row, as a media job would. */
export async function putThumbnail(ctx: StoriesTestContext, storyId: string, blobKey: string, bytes: string) {
  await ctx.blobs.put(blobKey, Readable.from([Buffer.from(bytes)]));
  await ctx.module.stories.addRendition({
    storyId,
    role: "thumbnail",
    blobKey,
    mime: "image/webp",
    size: Buffer.byteLength(bytes),
  });
}

export interface QueuedProcessing {
  id: string;
  state: JobState;
  ids: string[];
}

/** The media processing jobs in the `jobs` table that name `storyId`, oldest first. */
export async function processingJobsFor(ctx: StoriesTestContext, storyId: string): Promise<QueuedProcessing[]> {
  const rows = await ctx.db.kysely
    .selectFrom("jobs")
    .select(["id", "state", "payload"])
    .where("name", "=", PROCESS_STORIES_JOB)
    .orderBy("created_at")
    .execute();
  return rows
    .map((row) => ({
      id: row.id,
      state: row.state,
      ids: ctx.db.adapter.readJson<{ ids: string[] }>(row.payload).ids,
    }))
    .filter((job) => job.ids.includes(storyId));
}

export function api(ctx: () => Pick<StoriesTestContext, "app">) {
  return (
    who: TestPrincipal,
    method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE" | "HEAD",
    url: string,
    payload?: object,
    headers: Record<string, string> = {},
  ) => ctx().app.inject({ method, url: `${API_PREFIX}${url}`, headers: { ...who.headers, ...headers }, payload });
}

/** A photo story without a file, made and committed through the API by `who`: its id. */
export async function committedPhoto(
  ctx: () => Pick<StoriesTestContext, "app">,
  who: TestPrincipal,
  input: { libraryId?: string; title: string; properties?: Record<string, unknown> },
): Promise<string> {
  const call = api(ctx);
  const libraryId = input.libraryId ?? "product";
  const made = await call(who, "POST", "/workflow-story-create/photo", { ...input, libraryId });
  if (made.statusCode !== 200) throw new Error(`the story was not made: ${made.body}`);
  const id: string = made.json().data.id;
  const committed = await call(who, "POST", "/workflow-story-create/photo/commit", { libraryId, storyIds: [id] });
  if (committed.statusCode !== 200) throw new Error(`the story was not committed: ${committed.body}`);
  return id;
}

/** A committed story row with every column set (empty where optional), for tests that insert stories directly. */
export function storyRow(overrides: Partial<StoryInsert> & Pick<StoryInsert, "id">): StoryInsert {
  const now = "2024-05-06T07:08:09.000Z";
  return {
    library_id: "product",
    folder_id: null,
    type: "photo",
    half_product: false,
    status: "committed",
    title: "",
    caption: "",
    authors: "[]",
    source: null,
    keywords: "[]",
    tags: "[]",
    theme: null,
    category: null,
    properties: "{}",
    oid: randomUUID(),
    version_no: 1,
    cover_key: null,
    content_sha256: null,
    perceptual_hash: null,
    width: null,
    height: null,
    duration: null,
    size: null,
    mime: null,
    original_name: null,
    captured_at: null,
    gps: null,
    processing_state: "done",
    processing_error: null,
    created_by: null,
    created_at: now,
    updated_by: null,
    updated_at: now,
    ...overrides,
  };
}

/** A row of a story's history, written straight into `story_actions` by a test that needs a past. */
export function storyActionRow(
  story: { id: string; libraryId: string },
  who: { id: string; username: string },
  action: string,
  at: string,
) {
  return {
    id: randomUUID(),
    library_id: story.libraryId,
    story_id: story.id,
    user_id: who.id,
    username: who.username,
    action,
    at,
    ip: null,
    details: "{}",
  };
}
