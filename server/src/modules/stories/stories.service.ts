import type { Kysely } from "kysely";
import type { Database, ProcessingState } from "../../db/schema.js";
import { Conflict, Forbidden, Invalid, NotFound } from "../../http/errors.js";
import { auditChanges } from "../audit/audit-log.js";
import type { LibraryUser } from "../auth/permissions.js";
import { textSummary } from "./composite-text.js";
import { addedKeywords } from "./keyword-use.js";
import { nowOf, type StoryWriteDependencies } from "./stories.dependencies.js";
import { storyAction, storyAudit } from "./story-action.js";
import {
  type CommitInput,
  type CreateDraftInput,
  type IngestOptions,
  StoryDrafts,
  type UploadAccount,
  type UploadedOriginal,
} from "./story-drafts.service.js";
import { addedTags } from "./story-events.js";
import { type ExtractedMetadata, type FieldChange, fieldChanges, metadataChanges } from "./story-metadata.js";
import { type Rendition, StoryProcessing } from "./story-processing.service.js";
import { checkProperties } from "./story-properties.js";
import { folderFor, readableMembers } from "./story-references.js";
import { StoryTexts, textOfInput } from "./story-texts.js";
import type { Actor, MediaType, Story, StoryFile, StoryMetadata } from "./story-types.js";
import { type NewVersionInput, StoryVersioning, type UploadedVersion } from "./story-versions.service.js";

export type { KeywordUse } from "./keyword-use.js";
export type { CommitInput, CreateDraftInput, IngestOptions, UploadedOriginal } from "./story-drafts.service.js";
export type { ExtractedMetadata } from "./story-metadata.js";
export type { Rendition } from "./story-processing.service.js";
export type { NewVersionInput, UploadedVersion } from "./story-versions.service.js";

/** A file of this story (or of a member of this composite) to show as its cover. */
export interface CoverSource {
  storyId?: string;
  role: string;
  versionNo?: number;
}

export type StoryEdit = StoryMetadata & {
  folderId?: string | null;
  members?: { libraryId: string; storyId: string }[];
  coverFrom?: CoverSource | null;
  /** Composite stories: the text (a TipTap JSON document; null removes it), sanitised before it is stored. */
  text?: unknown;
};

/**
 * An edit based on an older revision of the story than its current one
 * (If-Match): someone else changed it in between. Carries the story as it
 * is now, for the form to show the other person's change.
 */
export class StaleStory extends Conflict {
  constructor(
    readonly current: Story,
    basedOn: number,
  ) {
    super(
      `the story was changed by someone else since revision ${basedOn} (now ${current.revision}): reload it or save again over it`,
      "stale_revision",
    );
    this.withMessageCode("story.stale", { basedOn, revision: current.revision });
  }
}

/**
 * The life of a story, the one way other modules change stories: drafts and
 * commit (StoryDrafts), new versions (StoryVersioning), the media jobs'
 * write-back (StoryProcessing), and here edit, cover, publish and delete.
 * Every change by a caller is authorised by StoryAccess.forWrite.
 */
export class StoriesService {
  readonly #drafts: StoryDrafts;
  readonly #versions: StoryVersioning;
  readonly #processing: StoryProcessing;

  constructor(private readonly deps: StoryWriteDependencies) {
    this.#drafts = new StoryDrafts(deps);
    this.#versions = new StoryVersioning(deps);
    this.#processing = new StoryProcessing(deps);
  }

  /** The upload module's entry point: a finished upload becomes a draft story. */
  async createDraftFromUpload(
    input: UploadedOriginal,
    options: IngestOptions = {},
  ): Promise<{ story: Story; duplicates: Story[] }> {
    return this.#drafts.createFromUpload(input, options);
  }

  /**
   * Whether an upload by this user may end where its metadata says (a new
   * draft in the library, or a new version of the story), asked when the
   * upload is created so a refusal comes before any byte is sent; the same
   * checks run again when the file is stored. Throws Forbidden / NotFound.
   * Without a library, the user's default: `defaultLibraryOf` is given the
   * account read here, so it is not read twice. Answers the library checked.
   */
  async checkUploadTarget(
    userId: string,
    target: { libraryId?: string; storyId?: string },
    defaultLibraryOf: (user: LibraryUser) => Promise<string>,
  ): Promise<{ libraryId: string; account: UploadAccount }> {
    const user = await this.deps.users.enabledUser(userId);
    if (!user) throw new Forbidden("the account does not exist or is disabled");
    const libraryId = target.libraryId ?? (await defaultLibraryOf(user));
    if (target.storyId) await this.deps.access.forWrite(user, libraryId, target.storyId);
    else await this.deps.access.libraryForWrite(user, libraryId);
    return { libraryId, account: user };
  }

  /** A draft from metadata alone (no file yet), or a composite grouping other stories. */
  async createDraft(actor: Actor, type: Story["type"], input: CreateDraftInput): Promise<Story> {
    return this.#drafts.create(actor, type, input);
  }

  /** Drafts → committed; media processing is enqueued in the same transaction. */
  async commit(actor: Actor, type: Story["type"], input: CommitInput): Promise<Story[]> {
    return this.#drafts.commit(actor, type, input);
  }

  /**
   * Changes a story's metadata, folder, members or cover. With `basedOn` (the
   * revision the caller's form was filled from: If-Match) the edit applies
   * only while the story is still at it, else StaleStory (409). The story's
   * history records each changed field from what to what.
   */
  async edit(
    actor: Actor,
    type: Story["type"],
    libraryId: string,
    storyId: string,
    patch: StoryEdit,
    options: {
      basedOn?: number;
      /** Runs in the edit's transaction after its rows (a batch edit records the story's outcome there). */
      withinTransaction?: (trx: Kysely<Database>, changes: FieldChange[]) => Promise<void>;
    } = {},
  ): Promise<Story> {
    const story = await this.deps.access.forWrite(actor, libraryId, storyId);
    const { basedOn } = options;
    if (basedOn !== undefined && basedOn !== story.revision) throw new StaleStory(story, basedOn);
    if (story.type !== type) throw new Invalid(`story ${storyId} is a ${story.type}, not a ${type}`, "wrong_type");
    if (patch.members && type !== "composite") throw new Invalid("members: only a composite story has members");
    const changes = metadataChanges(story, patch, (v) => this.deps.stories.json(v));
    if (patch.properties) {
      await this.deps.propertyAccess?.checkEditable(actor, Object.keys(patch.properties));
      await this.checkEditedProperties(story, patch.properties);
    }
    if (patch.folderId !== undefined) changes.folder_id = await folderFor(this.deps.folders, libraryId, patch.folderId);
    const memberIds = patch.members ? await readableMembers(this.deps.access, actor, patch.members) : undefined;
    if (memberIds?.includes(story.id)) throw new Invalid("members: a composite cannot hold itself");
    const text =
      patch.text === undefined
        ? undefined
        : textOfInput(type, patch.text, memberIds ?? (await this.deps.stories.members(story.id)));
    if (patch.coverFrom !== undefined) {
      changes.cover_key = patch.coverFrom === null ? null : await this.#coverKey(story, patch.coverFrom, memberIds);
    }
    const now = nowOf(this.deps);
    const changed = fieldChanges(story, patch);
    const texts = new StoryTexts(this.deps.db.kysely);
    if (text) {
      const from = textSummary((await texts.find(story.id))?.doc ?? null);
      const to = textSummary(text.doc);
      if (from !== to) changed.push({ field: "text", from, to });
    }
    const applied = await this.deps.db.kysely.transaction().execute(async (trx) => {
      const repository = this.deps.stories.with(trx);
      const row = { ...changes, updated_by: actor.id, updated_at: now };
      if (basedOn === undefined) await repository.update(story.id, row);
      else if (!(await repository.updateAtRevision(story.id, basedOn, row))) return false;
      if (memberIds) await repository.setMembers(story.id, memberIds);
      if (text) {
        await texts.with(trx).write(story.id, text.doc, now);
        await texts.with(trx).bumpRevision(story.id);
        await repository.changed([story.id]);
      }
      const fields = Object.keys(patch).filter((key) => patch[key as keyof typeof patch] !== undefined);
      await this.deps.actions.with(trx).record(storyAction(actor, story, "edit", { fields, changes: changed }), now);
      await this.deps.audit.record(
        trx,
        actor,
        storyAudit(
          story,
          "edit",
          // The text as a short summary: the audit log never holds a client's document.
          auditChanges(story, text ? { ...patch, text: textSummary(text.doc) } : patch),
        ),
      );
      const tags = addedTags(story.tags, patch.tags);
      if (tags.length > 0 && story.status !== "draft") {
        await this.deps.events?.record(trx, [
          { kind: "tagged", libraryId: story.libraryId, storyId: story.id, actorId: actor.id, tags },
        ]);
      }
      await options.withinTransaction?.(trx, changed);
      return true;
    });
    // Another save landed between the read above and this one's update.
    if (!applied) throw new StaleStory((await this.deps.stories.find(story.id))!, basedOn!);
    await this.deps.keywords.count([addedKeywords(story.keywords, patch.keywords)]);
    return (await this.deps.stories.find(story.id))!;
  }

  /**
   * An edit's custom properties, checked as a commit's are against the
   * catalogue's definitions for the story's type and library: values must fit
   * their kind (a select's one of its code list's values). A committed or
   * published story must keep every required one after the patch; a draft
   * may be filled in over several edits (its commit checks them).
   */
  /** Refuses (400 `invalid_property`) property values an edit of `story` may not write (a batch's preview asks too). */
  async checkEditedProperties(story: Story, patch: Record<string, unknown>): Promise<void> {
    if (!this.deps.propertyDefinitions || story.type === "composite") return;
    const definitions = await this.deps.propertyDefinitions.lookup({
      storytype: story.type,
      libraryId: story.libraryId,
    });
    checkProperties(definitions, patch, {
      path: "properties",
      current: story.properties,
      complete: story.status === "draft" ? false : "patched",
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
    const story = await this.deps.access.forWrite(actor, libraryId, storyId);
    const keys = new Set<string>();
    for (const file of await this.deps.stories.files([story.id])) keys.add(file.blobKey);
    for (const version of await this.deps.stories.versions(story.id)) if (version.blobKey) keys.add(version.blobKey);
    if (story.coverKey) keys.add(story.coverKey);
    const now = nowOf(this.deps);
    const unused: string[] = [];
    await this.deps.db.kysely.transaction().execute(async (trx) => {
      const stories = this.deps.stories.with(trx);
      await stories.delete(story.id);
      // A blob another story still uses (a composite's cover taken from a member) stays.
      for (const key of keys) if (!(await stories.isBlobReferenced(key))) unused.push(key);
      await this.deps.blobRegistry.forget(unused, trx);
      await this.deps.actions
        .with(trx)
        .record(storyAction(actor, story, "delete", { title: story.title, type: story.type }), now);
      await this.deps.audit.record(trx, actor, storyAudit(story, "delete", { details: { type: story.type } }));
    });
    // After the commit: a crash here leaves blobs without rows, which the sweeper removes.
    await this.#deleteBlobs(unused);
    // Copies made for downloads: left behind by a failure, the outgoing module's sweep removes them.
    await this.deps
      .forgetOutgoing?.(story.id)
      .catch((error: unknown) => this.deps.onBlobDeleteError?.(story.id, error));
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
   * A committed story becomes published, with its `publish` action, in the
   * publishing module's transaction (which writes the publish record).
   */
  async markPublished(
    actor: Actor,
    story: Story,
    details: Record<string, unknown>,
    at: string,
    trx: Kysely<Database>,
  ): Promise<void> {
    await this.deps.stories.with(trx).update(story.id, { status: "published", updated_by: actor.id, updated_at: at });
    await this.deps.actions.with(trx).record(storyAction(actor, story, "publish", details), at);
    await this.deps.audit.record(
      trx,
      actor,
      storyAudit(story, "publish", { before: { status: story.status }, after: { status: "published" }, details }),
    );
    await this.deps.events?.record(trx, [
      { kind: "published", libraryId: story.libraryId, storyId: story.id, actorId: actor.id },
    ]);
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

  // Media processing

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

  /** Stories whose processing state is queued or running (ids in order, at most `limit`, after `after`). */
  async storiesInProcessing(limit: number, after?: string): Promise<string[]> {
    return this.#processing.inProcessing(limit, after);
  }

  /** Processing failed with `reason`, only while the story still says queued or running (its job is dead or gone). */
  async failStuckProcessing(storyId: string, reason: string): Promise<boolean> {
    return this.#processing.failStuckProcessing(storyId, reason);
  }

  /** Media processing of the story's current version once more (re-transcode, an edited draft). */
  async requestProcessing(
    actor: Actor,
    libraryId: string,
    storyId: string,
    options: { dedupeKey?: string; reason: string },
  ): Promise<{ story: Story; jobId: string }> {
    return this.#processing.request(actor, libraryId, storyId, options);
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
    const story = await this.deps.access.forWrite(actor, libraryId, storyId);
    const now = nowOf(this.deps);
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
          storyAction(actor, story, "edit", { fields: ["cover"], width: cover.width, height: cover.height }),
          now,
        );
      await this.deps.audit.record(
        trx,
        actor,
        storyAudit(story, "cover", { before: { cover: story.coverKey }, after: { cover: cover.blobKey } }),
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
