import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import { Conflict, Forbidden, Invalid } from "../../http/errors.js";
import { HEX64, nowOf, type StoryWriteDependencies } from "./stories.dependencies.js";
import { storyAction, storyAudit } from "./story-action.js";
import { type IngestOptions, type UploadedOriginal, uploaderOf } from "./story-drafts.service.js";
import { originalFile } from "./story-rows.js";
import type { Actor, MediaType, Story } from "./story-types.js";

export interface NewVersionInput {
  libraryId: string;
  storyId: string;
  /** A draft (uploaded like any other) whose file becomes the new version; the draft is then gone. */
  fromLibraryId: string;
  fromStoryId: string;
  note?: string | null;
}

export type UploadedVersion = Omit<UploadedOriginal, "type" | "folderId" | "metadata"> & {
  storyId: string;
  note?: string | null;
};

type VersionDependencies = Pick<
  StoryWriteDependencies,
  "db" | "stories" | "actions" | "audit" | "access" | "users" | "processing" | "clock"
>;

/** New versions of a story; every version keeps its files. */
export class StoryVersioning {
  constructor(private readonly deps: VersionDependencies) {}

  /**
   * A new version of a story from a draft that carries the new file: the
   * draft's files become version n+1, `properties.lastVersion` points at the
   * previous version's oid, every earlier version's files stay.
   */
  async newVersion(actor: Actor, type: MediaType, input: NewVersionInput): Promise<Story> {
    const story = await this.deps.access.forWrite(actor, input.libraryId, input.storyId);
    const draft = await this.deps.access.forWrite(actor, input.fromLibraryId, input.fromStoryId);
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
    return this.#addVersion(actor, story, file, { fromStoryId: draft.id }, async (trx) => {
      const repository = this.deps.stories.with(trx);
      await repository.moveFiles(draft.id, story.id, story.versionNo + 1);
      await repository.delete(draft.id);
      await this.deps.actions
        .with(trx)
        .record(
          storyAction(actor, draft, "merged-into", { libraryId: story.libraryId, storyId: story.id }),
          nowOf(this.deps),
        );
    });
  }

  /** The upload module's entry point for a new version of an existing story. */
  async addVersionFromUpload(input: UploadedVersion, options: IngestOptions = {}): Promise<Story> {
    if (!HEX64.test(input.sha256)) throw new Invalid("sha256: must be 64 lower-case hex characters");
    const user = await this.deps.users.enabledUser(input.userId);
    if (!user) throw new Forbidden("the account does not exist or is disabled");
    const story = await this.deps.access.forWrite(user, input.libraryId, input.storyId);
    const versionNo = story.versionNo + 1;
    return this.#addVersion(
      uploaderOf(user, options),
      story,
      {
        blobKey: input.blobKey,
        sha256: input.sha256,
        size: input.size,
        mime: input.mime,
        originalName: input.originalName,
        note: input.note ?? null,
      },
      { originalName: input.originalName },
      async (trx) => {
        await this.deps.stories.with(trx).putFile(originalFile(story.id, versionNo, input), nowOf(this.deps));
        await options.withinTransaction?.(trx, { id: story.id, libraryId: story.libraryId, versionNo });
      },
      options.enqueueProcessing ?? false,
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
    details: Record<string, unknown>,
    attachFiles: (trx: Kysely<Database>) => Promise<void>,
    /** Process the new file now even when the story is a draft (an ingest); a committed story's always is. */
    processNow = false,
  ): Promise<Story> {
    const now = nowOf(this.deps);
    const versionNo = story.versionNo + 1;
    const oid = randomUUID();
    await this.deps.db.kysely.transaction().execute(async (trx) => {
      const repository = this.deps.stories.with(trx);
      // Technical facts belong to the file: the new one's are extracted again by the media job.
      const processing = processNow || story.status !== "draft";
      // Guarded by the version this call started from: of two concurrent new versions, one wins.
      const moved = await repository.updateAtVersion(story.id, story.versionNo, {
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
      if (!moved)
        throw new Conflict("another version was added at the same time: reload and try again", "version_conflict");
      await repository.insertVersion({
        storyId: story.id,
        versionNo,
        oid,
        ...source,
        createdBy: actor.id,
        createdAt: now,
      });
      await attachFiles(trx);
      // The story's pixel size is its current version's: known already when the new original was a processed
      // draft's, else recorded by the media job (applyExtractedMetadata).
      const original = (await repository.files([story.id], versionNo)).find((file) => file.role === "original");
      if (original?.width && original.height) {
        await repository.update(story.id, { width: original.width, height: original.height });
      }
      await this.deps.actions.with(trx).record(
        storyAction(actor, story, "new-version", {
          versionNo,
          oid,
          lastVersion: story.oid,
          note: source.note,
        }),
        now,
      );
      await this.deps.audit.record(
        trx,
        actor,
        storyAudit(story, "new-version", {
          before: { versionNo: story.versionNo },
          after: { versionNo },
          details: { ...details, note: source.note },
        }),
      );
      if (processing) await this.deps.processing.enqueue(trx, [story.id]);
    });
    return (await this.deps.stories.find(story.id))!;
  }
}
