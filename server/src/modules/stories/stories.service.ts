import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { Db } from "../../db/database.js";
import type { Database, ProcessingState } from "../../db/schema.js";
import { Conflict, Forbidden, Invalid, NotFound } from "../../http/errors.js";
import type { BlobStore } from "../blobs/blob-store.js";
import type { FoldersService } from "../folders/folders.service.js";
import type { JobDefinition, JobEnqueuer } from "../jobs/job-types.js";
import type { LibrariesService } from "../libraries/libraries.service.js";
import type { StoriesRepository } from "./stories.repository.js";
import type { NewStoryAction, StoryActionsRepository } from "./story-actions.repository.js";
import { type ExtractedMetadata, extractedChanges, mergeProperties, metadataChanges } from "./story-metadata.js";
import type { Actor, MediaType, Story, StoryMetadata } from "./story-types.js";

/** Payload of the media processing job: ids only, the handler reloads the stories. */
export interface ProcessStoriesPayload {
  ids: string[];
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
  clock?: () => Date;
  onBlobDeleteError?: (key: string, error: unknown) => void;
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
  /** Run inside the caller's transaction, so the blob row and the story exist together or not at all. */
  transaction?: Kysely<Database>;
  /** Where the upload came from, for the story action. */
  ip?: string | null;
  /** Enqueue media processing now rather than on commit. */
  enqueueProcessing?: boolean;
}

export interface Rendition {
  storyId: string;
  /** Default: the story's current version. */
  versionNo?: number;
  role: string;
  blobKey: string;
  mime: string;
  size: number;
  width?: number | null;
  height?: number | null;
}

export interface CreateDraftInput extends StoryMetadata {
  libraryId: string;
  folderId?: string | null;
  /** Composite stories: the member stories, in order. */
  members?: { libraryId: string; storyId: string }[];
}

export interface CommitInput {
  libraryId: string;
  storyIds: string[];
  metadata?: StoryMetadata;
}

export interface NewVersionInput {
  libraryId: string;
  storyId: string;
  /** A draft (uploaded like any other) whose file becomes the new version; the draft is then gone. */
  fromLibraryId: string;
  fromStoryId: string;
  note?: string | null;
}

const HEX64 = /^[0-9a-f]{64}$/;

/** The life of a story: drafts, commit, edit, versions, delete, and the hooks of the upload and media jobs. */
export class StoriesService {
  readonly #clock: () => Date;

  constructor(private readonly deps: StoriesServiceDependencies) {
    this.#clock = deps.clock ?? (() => new Date());
  }

  #now(): string {
    return this.#clock().toISOString();
  }

  async #transaction<T>(given: Kysely<Database> | undefined, work: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
    if (given) return work(given);
    return this.deps.db.kysely.transaction().execute(work);
  }

  #action(actor: Pick<Actor, "id" | "username" | "ip"> | null, story: Pick<Story, "libraryId" | "id">) {
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

  async #requireFolder(libraryId: string, folderId: string | null | undefined): Promise<string | null> {
    if (!folderId) return null;
    await this.deps.folders.require(libraryId, folderId);
    return folderId;
  }

  #newStoryRow(input: {
    libraryId: string;
    folderId: string | null;
    type: Story["type"];
    userId: string;
    oid: string;
    now: string;
    metadata: StoryMetadata;
  }) {
    const json = (value: unknown) => this.deps.stories.json(value);
    const { metadata } = input;
    return {
      id: randomUUID(),
      library_id: input.libraryId,
      folder_id: input.folderId,
      type: input.type,
      half_product: metadata.halfProduct ?? false,
      status: "draft" as const,
      title: metadata.title ?? "",
      caption: metadata.caption ?? "",
      authors: json(metadata.authors ?? []),
      source: metadata.source ?? null,
      keywords: json(metadata.keywords ?? []),
      tags: json(metadata.tags ?? []),
      theme: metadata.theme ?? null,
      category: metadata.category ?? null,
      properties: json(mergeProperties({}, metadata.properties)),
      oid: input.oid,
      version_no: 1,
      processing_state: "none" as const,
      created_by: input.userId,
      created_at: input.now,
      updated_by: input.userId,
      updated_at: input.now,
    };
  }

  /**
   * The upload module's entry point: a finished upload becomes a draft story
   * (version 1 and its original file). Refuses a library the user cannot
   * write; reports the stories of the library holding the same bytes.
   */
  async createDraftFromUpload(
    input: UploadedOriginal,
    options: IngestOptions = {},
  ): Promise<{ story: Story; duplicates: Story[] }> {
    if (!HEX64.test(input.sha256)) throw new Invalid("sha256: must be 64 lower-case hex characters");
    const user = await this.deps.stories.loadUser(input.userId);
    if (!user) throw new Forbidden("the account does not exist or is disabled");
    await this.deps.libraries.require(user, input.libraryId, "write");
    const folderId = await this.#requireFolder(input.libraryId, input.folderId);
    const now = this.#now();
    const oid = randomUUID();
    const row = {
      ...this.#newStoryRow({
        libraryId: input.libraryId,
        folderId,
        type: input.type,
        userId: user.id,
        oid,
        now,
        metadata: { title: stripExtension(input.originalName), ...input.metadata },
      }),
      content_sha256: input.sha256,
      size: input.size,
      mime: input.mime,
      original_name: input.originalName,
    };
    const duplicates = await this.deps.stories.withSha256([input.libraryId], input.sha256);
    await this.#transaction(options.transaction, async (trx) => {
      const stories = this.deps.stories.with(trx);
      await stories.insertStory(row);
      await stories.insertVersion({
        storyId: row.id,
        versionNo: 1,
        oid,
        blobKey: input.blobKey,
        sha256: input.sha256,
        size: input.size,
        mime: input.mime,
        originalName: input.originalName,
        note: null,
        createdBy: user.id,
        createdAt: now,
      });
      await stories.putFile(
        {
          storyId: row.id,
          versionNo: 1,
          role: "original",
          blobKey: input.blobKey,
          mime: input.mime,
          size: input.size,
          width: null,
          height: null,
        },
        now,
      );
      const action = this.#action({ ...user, ip: options.ip ?? null }, { libraryId: input.libraryId, id: row.id });
      await this.deps.actions.with(trx).record(
        action("create", {
          type: input.type,
          originalName: input.originalName,
          sha256: input.sha256,
          duplicates: duplicates.map((story) => story.id),
        }),
        now,
      );
      if (options.enqueueProcessing) await this.#enqueueProcessing(trx, [row.id]);
    });
    const story = options.transaction
      ? this.deps.stories.with(options.transaction).find(row.id)
      : this.deps.stories.find(row.id);
    return { story: (await story)!, duplicates };
  }

  /** A draft from metadata alone (no file yet), or a composite grouping other stories. */
  async createDraft(actor: Actor, type: Story["type"], input: CreateDraftInput): Promise<Story> {
    await this.deps.libraries.require(actor, input.libraryId, "write");
    const folderId = await this.#requireFolder(input.libraryId, input.folderId);
    if (input.members && type !== "composite") throw new Invalid("members: only a composite story has members");
    const memberIds = input.members ? await this.#readableMembers(actor, input.members) : [];
    const now = this.#now();
    const row = this.#newStoryRow({
      libraryId: input.libraryId,
      folderId,
      type,
      userId: actor.id,
      oid: randomUUID(),
      now,
      metadata: input,
    });
    await this.deps.db.kysely.transaction().execute(async (trx) => {
      const stories = this.deps.stories.with(trx);
      await stories.insertStory(row);
      await stories.insertVersion({
        storyId: row.id,
        versionNo: 1,
        oid: row.oid,
        blobKey: null,
        sha256: null,
        size: null,
        mime: null,
        originalName: null,
        note: null,
        createdBy: actor.id,
        createdAt: now,
      });
      if (memberIds.length > 0) await stories.setMembers(row.id, memberIds);
      await this.deps.actions
        .with(trx)
        .record(this.#action(actor, { libraryId: input.libraryId, id: row.id })("create", { type }), now);
    });
    return (await this.deps.stories.find(row.id))!;
  }

  async #readableMembers(actor: Actor, members: { libraryId: string; storyId: string }[]): Promise<string[]> {
    const ids: string[] = [];
    for (const [index, member] of members.entries()) {
      if (!(await this.deps.libraries.canRead(actor, member.libraryId))) {
        throw new NotFound(`members.${index}: story ${member.storyId} is not in library ${member.libraryId}`);
      }
      const story = await this.deps.stories.find(member.storyId);
      if (!story || story.libraryId !== member.libraryId) {
        throw new NotFound(`members.${index}: story ${member.storyId} is not in library ${member.libraryId}`);
      }
      if (story.type === "composite") throw new Invalid(`members.${index}: a composite cannot hold a composite`);
      if (!ids.includes(story.id)) ids.push(story.id);
    }
    return ids;
  }

  async #enqueueProcessing(trx: Kysely<Database>, ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.deps.jobs.enqueue(this.deps.processingJob, { ids }, { transaction: trx });
  }

  /**
   * Drafts → committed, with the metadata the upload form gives for all of
   * them; media processing is enqueued in the same transaction.
   */
  async commit(actor: Actor, type: MediaType, input: CommitInput): Promise<Story[]> {
    await this.deps.libraries.require(actor, input.libraryId, "write");
    const stories: Story[] = [];
    for (const [index, id] of input.storyIds.entries()) {
      const story = await this.deps.stories.find(id);
      if (!story || story.libraryId !== input.libraryId) {
        throw new NotFound(`storyIds.${index}: story ${id} is not in library ${input.libraryId}`);
      }
      if (story.type !== type) throw new Invalid(`storyIds.${index}: story ${id} is a ${story.type}, not a ${type}`);
      if (story.status !== "draft") throw new Conflict(`storyIds.${index}: story ${id} is not a draft`, "not_a_draft");
      stories.push(story);
    }
    const withFiles = new Set(
      (await this.deps.stories.files(input.storyIds))
        .filter((file) => file.role === "original")
        .map((file) => file.storyId),
    );
    const now = this.#now();
    await this.deps.db.kysely.transaction().execute(async (trx) => {
      const repository = this.deps.stories.with(trx);
      const actions = this.deps.actions.with(trx);
      for (const story of stories) {
        const changes = input.metadata ? metadataChanges(story, input.metadata, (v) => repository.json(v)) : {};
        if (Object.keys(changes).length > 0) await repository.update(story.id, changes);
        if (!(await repository.markCommitted(story.id, actor.id, now, withFiles.has(story.id)))) {
          throw new Conflict(`story ${story.id} is not a draft`, "not_a_draft");
        }
        await actions.record(this.#action(actor, story)("commit", { fields: Object.keys(input.metadata ?? {}) }), now);
      }
      await this.#enqueueProcessing(
        trx,
        stories.filter((story) => withFiles.has(story.id)).map((story) => story.id),
      );
    });
    return this.deps.stories
      .findMany(input.storyIds)
      .then((found) => input.storyIds.map((id) => found.find((story) => story.id === id)!));
  }

  async edit(
    actor: Actor,
    type: Story["type"],
    libraryId: string,
    storyId: string,
    patch: StoryMetadata & { folderId?: string | null; members?: { libraryId: string; storyId: string }[] },
  ): Promise<Story> {
    await this.deps.libraries.require(actor, libraryId, "write");
    const story = await this.require(libraryId, storyId);
    if (story.type !== type) throw new Invalid(`story ${storyId} is a ${story.type}, not a ${type}`, "wrong_type");
    if (patch.members && type !== "composite") throw new Invalid("members: only a composite story has members");
    const changes = metadataChanges(story, patch, (v) => this.deps.stories.json(v));
    if (patch.folderId !== undefined) changes.folder_id = await this.#requireFolder(libraryId, patch.folderId);
    const memberIds = patch.members ? await this.#readableMembers(actor, patch.members) : undefined;
    if (memberIds?.includes(story.id)) throw new Invalid("members: a composite cannot hold itself");
    const now = this.#now();
    await this.deps.db.kysely.transaction().execute(async (trx) => {
      const repository = this.deps.stories.with(trx);
      await repository.update(story.id, { ...changes, updated_by: actor.id, updated_at: now });
      if (memberIds) await repository.setMembers(story.id, memberIds);
      const fields = Object.keys(patch).filter((key) => patch[key as keyof typeof patch] !== undefined);
      await this.deps.actions.with(trx).record(this.#action(actor, story)("edit", { fields }), now);
    });
    return (await this.deps.stories.find(story.id))!;
  }

  /** Deletes the story and its rows; its blobs (every version's) are removed after the commit. */
  async delete(actor: Actor, libraryId: string, storyId: string): Promise<void> {
    const story = await this.require(libraryId, storyId);
    const keys = new Set<string>();
    for (const file of await this.deps.stories.files([story.id])) keys.add(file.blobKey);
    for (const version of await this.deps.stories.versions(story.id)) if (version.blobKey) keys.add(version.blobKey);
    if (story.coverKey) keys.add(story.coverKey);
    const now = this.#now();
    await this.deps.db.kysely.transaction().execute(async (trx) => {
      await this.deps.stories.with(trx).delete(story.id);
      await this.deps.actions
        .with(trx)
        .record(this.#action(actor, story)("delete", { title: story.title, type: story.type }), now);
    });
    await this.#deleteBlobs([...keys]);
  }

  async #deleteBlobs(keys: string[]): Promise<void> {
    for (const key of keys) {
      try {
        await this.deps.blobs.delete(key);
      } catch (error) {
        // The rows are gone; a blob left behind is an orphan for the sweeper, not a failed delete.
        this.deps.onBlobDeleteError?.(key, error);
      }
    }
  }

  /**
   * A new version of a story from a draft that carries the new file: the
   * draft's files become version n+1, `properties.lastVersion` points at the
   * previous version's oid, every earlier version's files stay.
   */
  async newVersion(actor: Actor, type: MediaType, input: NewVersionInput): Promise<Story> {
    await this.deps.libraries.require(actor, input.libraryId, "write");
    await this.deps.libraries.require(actor, input.fromLibraryId, "write");
    const story = await this.require(input.libraryId, input.storyId);
    const draft = await this.require(input.fromLibraryId, input.fromStoryId);
    if (story.type !== type) throw new Invalid(`storyId: story ${story.id} is a ${story.type}, not a ${type}`);
    if (draft.type !== type) throw new Invalid(`fromStoryId: story ${draft.id} is a ${draft.type}, not a ${type}`);
    if (draft.status !== "draft") throw new Conflict(`fromStoryId: story ${draft.id} is not a draft`, "not_a_draft");
    if (draft.id === story.id) throw new Invalid("fromStoryId: a story cannot be its own new version");
    const [source] = await this.deps.stories.versions(draft.id);
    if (!source?.blobKey) throw new Invalid(`fromStoryId: story ${draft.id} has no file`);
    const file = {
      blobKey: source.blobKey,
      sha256: source.sha256,
      size: source.size,
      mime: source.mime,
      originalName: source.originalName,
      note: input.note ?? null,
    };
    return this.#addVersion(actor, story, file, async (trx) => {
      const repository = this.deps.stories.with(trx);
      await repository.moveFiles(draft.id, story.id, story.versionNo + 1);
      await repository.delete(draft.id);
      await this.deps.actions
        .with(trx)
        .record(
          this.#action(actor, draft)("merged-into", { libraryId: story.libraryId, storyId: story.id }),
          this.#now(),
        );
    });
  }

  /** The upload module's entry point for a new version of an existing story. */
  async addVersionFromUpload(
    input: Omit<UploadedOriginal, "type" | "folderId" | "metadata"> & { storyId: string; note?: string | null },
    options: IngestOptions = {},
  ): Promise<Story> {
    if (!HEX64.test(input.sha256)) throw new Invalid("sha256: must be 64 lower-case hex characters");
    const user = await this.deps.stories.loadUser(input.userId);
    if (!user) throw new Forbidden("the account does not exist or is disabled");
    await this.deps.libraries.require(user, input.libraryId, "write");
    const story = await this.require(input.libraryId, input.storyId);
    const versionNo = story.versionNo + 1;
    return this.#addVersion(
      { ...user, ip: options.ip ?? null },
      story,
      {
        blobKey: input.blobKey,
        sha256: input.sha256,
        size: input.size,
        mime: input.mime,
        originalName: input.originalName,
        note: input.note ?? null,
      },
      async (trx) => {
        await this.deps.stories.with(trx).putFile(
          {
            storyId: story.id,
            versionNo,
            role: "original",
            blobKey: input.blobKey,
            mime: input.mime,
            size: input.size,
            width: null,
            height: null,
          },
          this.#now(),
        );
      },
      options.transaction,
    );
  }

  async #addVersion(
    actor: Actor,
    story: Story,
    source: {
      blobKey: string | null;
      sha256: string | null;
      size: number | null;
      mime: string | null;
      originalName: string | null;
      note: string | null;
    },
    attachFiles: (trx: Kysely<Database>) => Promise<void>,
    given?: Kysely<Database>,
  ): Promise<Story> {
    const now = this.#now();
    const versionNo = story.versionNo + 1;
    const oid = randomUUID();
    await this.#transaction(given, async (trx) => {
      const repository = this.deps.stories.with(trx);
      await repository.insertVersion({
        storyId: story.id,
        versionNo,
        oid,
        ...source,
        createdBy: actor.id,
        createdAt: now,
      });
      await attachFiles(trx);
      // Technical facts belong to the file: the new one's are extracted again by the media job.
      const processing = story.status !== "draft";
      await repository.update(story.id, {
        oid,
        version_no: versionNo,
        properties: repository.json({ ...story.properties, lastVersion: story.oid }),
        content_sha256: source.sha256,
        size: source.size,
        mime: source.mime,
        original_name: source.originalName,
        perceptual_hash: null,
        width: null,
        height: null,
        duration: null,
        processing_state: processing ? "queued" : "none",
        processing_error: null,
        updated_by: actor.id,
        updated_at: now,
      });
      await this.deps.actions
        .with(trx)
        .record(
          this.#action(actor, story)("new-version", { versionNo, oid, lastVersion: story.oid, note: source.note }),
          now,
        );
      if (processing) await this.#enqueueProcessing(trx, [story.id]);
    });
    return (await (given ? this.deps.stories.with(given) : this.deps.stories).find(story.id))!;
  }

  // Hooks of the media jobs (the system acts: no user, no address).

  /** Records a rendition of a version (thumbnail, proxy…); returns the blob key it replaced, for the caller to delete. */
  async addRendition(
    rendition: Rendition,
    options: { transaction?: Kysely<Database> } = {},
  ): Promise<{ replacedBlobKey: string | null }> {
    const repository = options.transaction ? this.deps.stories.with(options.transaction) : this.deps.stories;
    const story = await repository.find(rendition.storyId);
    if (!story) throw new NotFound(`story ${rendition.storyId} does not exist`);
    const versionNo = rendition.versionNo ?? story.versionNo;
    const now = this.#now();
    return this.#transaction(options.transaction, async (trx) => {
      const stories = this.deps.stories.with(trx);
      const replacedBlobKey = await stories.putFile(
        {
          storyId: story.id,
          versionNo,
          role: rendition.role,
          blobKey: rendition.blobKey,
          mime: rendition.mime,
          size: rendition.size,
          width: rendition.width ?? null,
          height: rendition.height ?? null,
        },
        now,
      );
      // The first poster or thumbnail of the current version is the cover until someone sets one.
      if (
        !story.coverKey &&
        versionNo === story.versionNo &&
        (rendition.role === "thumbnail" || rendition.role === "poster")
      ) {
        await stories.update(story.id, { cover_key: rendition.blobKey });
      }
      await this.deps.actions
        .with(trx)
        .record(this.#action(null, story)("rendition", { versionNo, role: rendition.role }), now);
      return { replacedBlobKey };
    });
  }

  async applyExtractedMetadata(storyId: string, fields: ExtractedMetadata): Promise<Story> {
    const story = await this.deps.stories.find(storyId);
    if (!story) throw new NotFound(`story ${storyId} does not exist`);
    const changes = extractedChanges(story, fields, (v) => this.deps.stories.json(v));
    if (Object.keys(changes).length === 0) return story;
    const now = this.#now();
    await this.deps.db.kysely.transaction().execute(async (trx) => {
      await this.deps.stories.with(trx).update(story.id, changes);
      await this.deps.actions
        .with(trx)
        .record(this.#action(null, story)("metadata", { fields: Object.keys(changes) }), now);
    });
    return (await this.deps.stories.find(story.id))!;
  }

  async setProcessingState(storyId: string, state: ProcessingState, error?: string | null): Promise<void> {
    const story = await this.deps.stories.find(storyId);
    if (!story) throw new NotFound(`story ${storyId} does not exist`);
    await this.deps.stories.update(storyId, {
      processing_state: state,
      processing_error: state === "failed" ? (error ?? null) : null,
    });
    if (state === "done" || state === "failed") {
      await this.deps.actions.record(
        this.#action(null, story)("processing", { state, error: error ?? null }),
        this.#now(),
      );
    }
  }
}

function stripExtension(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(0, dot) : name;
}
