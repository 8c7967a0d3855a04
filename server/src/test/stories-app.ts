import { createHash, randomUUID } from "node:crypto";
import path from "node:path";
import { Readable } from "node:stream";
import type { FastifyInstance } from "fastify";
import type { Db } from "../db/database.js";
import { API_PREFIX } from "../http/error-handler.js";
import { GrantsRepository } from "../modules/access/grants.repository.js";
import { LibraryAccess } from "../modules/access/library-access.js";
import { buildStories, type StoriesModule } from "../modules/stories/stories.compose.js";
import type { MediaType } from "../modules/stories/story-types.js";
import { type DialectName, useTestApp } from "./dialects.js";
import { TestLocalBlobStore } from "./local-blob-store.js";
import type { TestPrincipal } from "./principals.js";
import { RecordingJobEnqueuer } from "./recording-job-enqueuer.js";

export interface StoriesTestContext {
  app: FastifyInstance;
  db: Db;
  blobs: TestLocalBlobStore;
  jobs: RecordingJobEnqueuer;
  /** The same services the app runs on, built over the same database, for the upload and media entry points. */
  module: StoriesModule;
}

/**
 * The app with the two temporary stand-ins (a local BlobStore and a JobEnqueuer
 * that records into a test table) until the blobs and jobs modules land.
 */
export function useStoriesApp(dialect: DialectName): () => StoriesTestContext {
  let blobs: TestLocalBlobStore | undefined;
  let jobs: RecordingJobEnqueuer | undefined;
  const ctx = useTestApp(dialect, {
    seams: async (db, database) => {
      blobs = new TestLocalBlobStore(path.join(database.dataDir, "blobs"));
      jobs = await RecordingJobEnqueuer.create(db);
      return { blobStore: blobs, jobs };
    },
  });
  let module: StoriesModule | undefined;
  return () => {
    const { app, db } = ctx();
    module ??= buildStories({ db, access: new LibraryAccess(new GrantsRepository(db)), blobs, jobs });
    return { app, db, blobs: blobs!, jobs: jobs!, module };
  };
}

export function sha256(bytes: Buffer | string): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** What the upload module will do on completion: store the bytes, then create the draft. */
export async function uploadStory(
  ctx: StoriesTestContext,
  who: TestPrincipal,
  input: { libraryId?: string; folderId?: string; type?: MediaType; bytes?: string; name?: string; mime?: string },
) {
  const bytes = Buffer.from(input.bytes ?? `bytes ${randomUUID()}`);
  const blobKey = `originals/${randomUUID()}`;
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
  });
}

export function api(ctx: () => StoriesTestContext) {
  return (who: TestPrincipal, method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: object) =>
    ctx().app.inject({ method, url: `${API_PREFIX}${url}`, headers: who.headers, payload });
}
