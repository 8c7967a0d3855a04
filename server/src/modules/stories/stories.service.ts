import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { Database, ProcessingState } from "../../db/schema.js";
import { Conflict, Forbidden, Invalid, NotFound } from "../../http/errors.js";
import { type ExtractedMetadata, mergeProperties, metadataChanges } from "./story-metadata.js";
import { type Rendition, StoryProcessing } from "./story-processing.service.js";
import { checkProperties } from "./story-properties.js";
import type { Actor, MediaType, Story, StoryFile, StoryMetadata } from "./story-types.js";
import { type NewVersionInput, StoryVersioning, type UploadedVersion } from "./story-versions.service.js";
import {
  addedKeywords,
  HEX64,
  type IngestOptions,
  type StoriesServiceDependencies,
  StoryWriteSupport,
  type UploadedOriginal,
} from "./story-write-support.js";

export type { ExtractedMetadata } from "./story-metadata.js";
export type { Rendition } from "./story-processing.service.js";
export type { NewVersionInput, UploadedVersion } from "./story-versions.service.js";
export type {
  IngestOptions,
  KeywordUse,
  ProcessStoriesPayload,
  StoriesServiceDependencies,
  UploadedOriginal,
} from "./story-write-support.js";

export interface CreateDraftInput extends StoryMetadata {
  libraryId: string;
  folderId?: string | null;
  /** Composite stories: the member stories, in order. */
  members?: { libraryId: string; storyId: string }[];
}

/** A file of this story (or of a member of this composite) to show as its cover. */
export interface CoverSource {
  storyId?: string;
  role: string;
  versionNo?: number;
}

export interface CommitInput {
  libraryId: string;
  storyIds: string[];
  metadata?: StoryMetadata;
  /** Per story id: custom properties merged over `metadata.properties` for that story only. */
  properties?: Record<string, Record<string, unknown>>;
}

/** The life of a story: drafts, commit, edit, versions, delete, and the hooks of the upload and media jobs. */
export class StoriesService {
  readonly #support: StoryWriteSupport;
  readonly #versions: StoryVersioning;
  readonly #processing: StoryProcessing;

  constructor(private readonly deps: StoriesServiceDependencies) {
    this.#support = new StoryWriteSupport(deps);
    this.#versions = new StoryVersioning(deps, this.#support);
    this.#processing = new StoryProcessing(deps, this.#support);
  }

  /** The story, when it is in this library; NotFound otherwise. */
  async require(libraryId: string, storyId: string): Promise<Story> {
    return this.#support.require(libraryId, storyId);
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
    const now = this.#support.now();
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
      ...(options.enqueueProcessing ? { processing_state: "queued" as const } : {}),
    };
    const duplicates = await this.deps.stories.withSha256([input.libraryId], input.sha256);
    // Every check above runs before the transaction: SQLite has one connection, held by it.
    await this.deps.db.kysely.transaction().execute(async (trx) => {
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
      const action = this.#support.action(
        { ...user, ip: options.ip ?? null },
        { libraryId: input.libraryId, id: row.id },
      );
      await this.deps.actions.with(trx).record(
        action("create", {
          type: input.type,
          originalName: input.originalName,
          sha256: input.sha256,
          duplicates: duplicates.map((story) => story.id),
        }),
        now,
      );
      if (options.enqueueProcessing) await this.#support.enqueueProcessing(trx, [row.id]);
      await options.withinTransaction?.(trx, { id: row.id, libraryId: input.libraryId, versionNo: 1 });
    });
    await this.#support.countKeywordUse([addedKeywords([], input.metadata?.keywords)]);
    return { story: (await this.deps.stories.find(row.id))!, duplicates };
  }

  /** A draft from metadata alone (no file yet), or a composite grouping other stories. */
  async createDraft(actor: Actor, type: Story["type"], input: CreateDraftInput): Promise<Story> {
    await this.deps.libraries.require(actor, input.libraryId, "write");
    const folderId = await this.#requireFolder(input.libraryId, input.folderId);
    if (input.members && type !== "composite") throw new Invalid("members: only a composite story has members");
    const memberIds = input.members ? await this.#readableMembers(actor, input.members) : [];
    const now = this.#support.now();
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
        .record(this.#support.action(actor, { libraryId: input.libraryId, id: row.id })("create", { type }), now);
    });
    await this.#support.countKeywordUse([addedKeywords([], input.keywords)]);
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
    const perStory = await this.#commitProperties(type, input, stories);
    const withFiles = new Set(
      (await this.deps.stories.files(input.storyIds))
        .filter((file) => file.role === "original")
        .map((file) => file.storyId),
    );
    const now = this.#support.now();
    // Uploads start their processing on the last byte; commit starts what has not run (or failed).
    const toProcess = new Set(
      stories
        .filter((story) => withFiles.has(story.id) && ["none", "failed"].includes(story.processingState))
        .map((story) => story.id),
    );
    await this.deps.db.kysely.transaction().execute(async (trx) => {
      const repository = this.deps.stories.with(trx);
      const actions = this.deps.actions.with(trx);
      for (const story of stories) {
        const metadata = perStory.has(story.id)
          ? { ...input.metadata, properties: perStory.get(story.id) }
          : input.metadata;
        const changes = metadata ? metadataChanges(story, metadata, (v) => repository.json(v)) : {};
        if (Object.keys(changes).length > 0) await repository.update(story.id, changes);
        if (!(await repository.markCommitted(story.id, actor.id, now, toProcess.has(story.id)))) {
          throw new Conflict(`story ${story.id} is not a draft`, "not_a_draft");
        }
        await actions.record(
          this.#support.action(actor, story)("commit", {
            fields: Object.keys({ ...input.metadata, ...(perStory.has(story.id) ? { properties: true } : {}) }),
          }),
          now,
        );
      }
      await this.#support.enqueueProcessing(trx, [...toProcess]);
    });
    await this.#support.countKeywordUse(
      stories.map((story) => addedKeywords(story.keywords, input.metadata?.keywords)),
    );
    return this.deps.stories
      .findMany(input.storyIds)
      .then((found) => input.storyIds.map((id) => found.find((story) => story.id === id)!));
  }

  /**
   * The custom properties each story gets on commit (the batch's, then its own
   * on top), checked against the catalogue's definitions for the type and
   * library when the commit carries any: values must fit their kind and every
   * required property must have a value.
   */
  async #commitProperties(
    type: MediaType,
    input: CommitInput,
    stories: Story[],
  ): Promise<Map<string, Record<string, unknown>>> {
    const batch = input.metadata?.properties;
    const own = input.properties ?? {};
    const result = new Map<string, Record<string, unknown>>();
    const unknownId = Object.keys(own).find((id) => !input.storyIds.includes(id));
    if (unknownId) throw new Invalid(`properties.${unknownId}: not one of storyIds`, "invalid_property");
    if (!batch && Object.keys(own).length === 0) return result;
    const definitions =
      (await this.deps.propertyDefinitions?.lookup({ storytype: type, libraryId: input.libraryId })) ?? [];
    for (const story of stories) {
      const patch = { ...batch, ...own[story.id] };
      const path = story.id in own ? `properties.${story.id}` : "metadata.properties";
      if (this.deps.propertyDefinitions) {
        checkProperties(definitions, patch, { path, current: story.properties, complete: true });
      }
      result.set(story.id, patch);
    }
    return result;
  }

  async edit(
    actor: Actor,
    type: Story["type"],
    libraryId: string,
    storyId: string,
    patch: StoryMetadata & {
      folderId?: string | null;
      members?: { libraryId: string; storyId: string }[];
      coverFrom?: CoverSource | null;
    },
  ): Promise<Story> {
    await this.deps.libraries.require(actor, libraryId, "write");
    const story = await this.require(libraryId, storyId);
    if (story.type !== type) throw new Invalid(`story ${storyId} is a ${story.type}, not a ${type}`, "wrong_type");
    if (patch.members && type !== "composite") throw new Invalid("members: only a composite story has members");
    const changes = metadataChanges(story, patch, (v) => this.deps.stories.json(v));
    if (patch.properties) await this.#checkEditedProperties(story, patch.properties);
    if (patch.folderId !== undefined) changes.folder_id = await this.#requireFolder(libraryId, patch.folderId);
    const memberIds = patch.members ? await this.#readableMembers(actor, patch.members) : undefined;
    if (memberIds?.includes(story.id)) throw new Invalid("members: a composite cannot hold itself");
    if (patch.coverFrom !== undefined) {
      changes.cover_key = patch.coverFrom === null ? null : await this.#coverKey(story, patch.coverFrom, memberIds);
    }
    const now = this.#support.now();
    await this.deps.db.kysely.transaction().execute(async (trx) => {
      const repository = this.deps.stories.with(trx);
      await repository.update(story.id, { ...changes, updated_by: actor.id, updated_at: now });
      if (memberIds) await repository.setMembers(story.id, memberIds);
      const fields = Object.keys(patch).filter((key) => patch[key as keyof typeof patch] !== undefined);
      await this.deps.actions.with(trx).record(this.#support.action(actor, story)("edit", { fields }), now);
    });
    await this.#support.countKeywordUse([addedKeywords(story.keywords, patch.keywords)]);
    return (await this.deps.stories.find(story.id))!;
  }

  /**
   * An edit's custom properties, checked as a commit's are against the
   * catalogue's definitions for the story's type and library: values must fit
   * their kind (a select's one of its code list's values). A committed or
   * published story must keep every required one after the patch; a draft
   * may be filled in over several edits (its commit checks them).
   */
  async #checkEditedProperties(story: Story, patch: Record<string, unknown>): Promise<void> {
    if (!this.deps.propertyDefinitions || story.type === "composite") return;
    const definitions = await this.deps.propertyDefinitions.lookup({
      storytype: story.type,
      libraryId: story.libraryId,
    });
    checkProperties(definitions, patch, {
      path: "properties",
      current: story.properties,
      complete: story.status !== "draft",
    });
  }

  /** The blob of the file chosen as cover: one of this story's, or of one of a composite's members. */
  async #coverKey(story: Story, source: CoverSource, memberIds?: string[]): Promise<string> {
    const storyId = source.storyId ?? story.id;
    const members = memberIds ?? (story.type === "composite" ? await this.deps.stories.members(story.id) : []);
    if (storyId !== story.id && !members.includes(storyId)) {
      throw new Invalid("coverFrom.storyId: must be this story or one of its members");
    }
    const owner = storyId === story.id ? story : await this.deps.stories.find(storyId);
    const versionNo = source.versionNo ?? owner?.versionNo ?? story.versionNo;
    const file = (await this.deps.stories.files([storyId], versionNo)).find(
      (candidate) => candidate.role === source.role,
    );
    if (!file)
      throw new NotFound(`coverFrom.role: version ${versionNo} of story ${storyId} has no ${source.role} file`);
    if (!file.mime.startsWith("image/")) throw new Invalid(`coverFrom.role: the ${source.role} file is not an image`);
    return file.blobKey;
  }

  /** Deletes the story and its rows; its blobs (every version's) are removed after the commit. */
  async delete(actor: Actor, libraryId: string, storyId: string): Promise<void> {
    const story = await this.require(libraryId, storyId);
    const keys = new Set<string>();
    for (const file of await this.deps.stories.files([story.id])) keys.add(file.blobKey);
    for (const version of await this.deps.stories.versions(story.id)) if (version.blobKey) keys.add(version.blobKey);
    if (story.coverKey) keys.add(story.coverKey);
    const now = this.#support.now();
    const unused: string[] = [];
    await this.deps.db.kysely.transaction().execute(async (trx) => {
      const stories = this.deps.stories.with(trx);
      await stories.delete(story.id);
      // A blob another story still uses (a composite's cover taken from a member) stays.
      for (const key of keys) if (!(await stories.isBlobReferenced(key))) unused.push(key);
      await stories.forgetBlobs(unused);
      await this.deps.actions
        .with(trx)
        .record(this.#support.action(actor, story)("delete", { title: story.title, type: story.type }), now);
    });
    // After the commit: a crash here leaves blobs without rows, which the sweeper removes.
    await this.#deleteBlobs(unused);
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
    return this.#versions.newVersion(actor, type, input);
  }

  /** The upload module's entry point for a new version of an existing story. */
  async addVersionFromUpload(input: UploadedVersion, options: IngestOptions = {}): Promise<Story> {
    return this.#versions.addVersionFromUpload(input, options);
  }

  // Hooks of the media jobs

  /** Records a rendition of a version; returns the blob key it replaced, for the caller to delete. */
  async addRendition(
    rendition: Rendition,
    options: { transaction?: Kysely<Database> } = {},
  ): Promise<{ replacedBlobKey: string | null }> {
    return this.#processing.addRendition(rendition, options);
  }

  /** The story and the original of its current version, for the media jobs. */
  async processingSource(storyId: string): Promise<{ story: Story; original: StoryFile } | undefined> {
    return this.#processing.source(storyId);
  }

  /** Fills the story's fields from extracted metadata only where they are empty (keywords applied are counted). */
  async applyExtractedMetadata(storyId: string, fields: ExtractedMetadata, versionNo?: number): Promise<Story> {
    return this.#processing.applyExtractedMetadata(storyId, fields, versionNo);
  }

  async setProcessingState(storyId: string, state: ProcessingState, error?: string | null): Promise<void> {
    return this.#processing.setProcessingState(storyId, state, error);
  }

  // Added for the media-uploads module (re-transcode, image editor, cover cropper)

  /**
   * Media processing of the story's current version once more (a
   * re-transcode, or an edited draft): the queued state, the job and the
   * story action commit together. `dedupeKey` keeps a second job from being
   * queued while one with the same key is queued or running.
   */
  async requestProcessing(
    actor: Actor,
    libraryId: string,
    storyId: string,
    options: { dedupeKey?: string; reason: string },
  ): Promise<{ story: Story; jobId: string }> {
    await this.deps.libraries.require(actor, libraryId, "write");
    const story = await this.require(libraryId, storyId);
    if (!(await this.processingSource(story.id))) {
      throw new Invalid(`story ${storyId} has no file to process`, "nothing_to_process");
    }
    const now = this.#support.now();
    const jobId = await this.deps.db.kysely.transaction().execute(async (trx) => {
      await this.deps.stories.with(trx).update(story.id, { processing_state: "queued", processing_error: null });
      const id = await this.deps.jobs.enqueue(
        this.deps.processingJob,
        { ids: [story.id] },
        { transaction: trx, dedupeKey: options.dedupeKey, storyId: story.id },
      );
      await this.deps.actions.with(trx).record(
        this.#support.action(actor, story)("processing", {
          state: "queued",
          reason: options.reason,
          versionNo: story.versionNo,
          jobId: id,
        }),
        now,
      );
      return id;
    });
    return { story: (await this.deps.stories.find(story.id))!, jobId };
  }

  /**
   * An uploaded image becomes the story's cover: the `cover` file of its
   * current version and `cover_key`, with one story action. A cover it
   * replaces on that version is deleted from the store when nothing else uses
   * it; its key is returned so the caller can drop its `blobs` row.
   */
  async setCoverImage(
    actor: Actor,
    libraryId: string,
    storyId: string,
    cover: { blobKey: string; mime: string; size: number; width: number; height: number },
  ): Promise<{ story: Story; deletedBlobKey: string | null }> {
    await this.deps.libraries.require(actor, libraryId, "write");
    const story = await this.require(libraryId, storyId);
    const now = this.#support.now();
    const replaced = await this.deps.db.kysely.transaction().execute(async (trx) => {
      const repository = this.deps.stories.with(trx);
      const previous = await repository.putFile(
        { storyId: story.id, versionNo: story.versionNo, role: "cover", ...cover },
        now,
      );
      await repository.update(story.id, { cover_key: cover.blobKey, updated_by: actor.id, updated_at: now });
      await this.deps.actions
        .with(trx)
        .record(
          this.#support.action(actor, story)("edit", { fields: ["cover"], width: cover.width, height: cover.height }),
          now,
        );
      return previous;
    });
    let deletedBlobKey: string | null = null;
    if (replaced && !(await this.deps.stories.isBlobReferenced(replaced))) {
      await this.#deleteBlobs([replaced]);
      deletedBlobKey = replaced;
    }
    return { story: (await this.deps.stories.find(story.id))!, deletedBlobKey };
  }
}

function stripExtension(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(0, dot) : name;
}
