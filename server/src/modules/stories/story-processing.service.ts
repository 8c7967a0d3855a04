import type { Kysely } from "kysely";
import type { Database, ProcessingState } from "../../db/schema.js";
import { Invalid, NotFound } from "../../http/errors.js";
import { nowOf, type StoryWriteDependencies } from "./stories.dependencies.js";
import { storyAction, storyAudit } from "./story-action.js";
import { type ExtractedMetadata, extractedChanges } from "./story-metadata.js";
import type { Actor, Story, StoryFile } from "./story-types.js";

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

type ProcessingDependencies = Pick<
  StoryWriteDependencies,
  "db" | "stories" | "actions" | "audit" | "access" | "processing" | "keywords" | "clock"
>;

/**
 * Media processing of stories: asking for it again, and what the media jobs
 * write back (renditions, extracted metadata, the processing state; the
 * system acts).
 */
export class StoryProcessing {
  constructor(private readonly deps: ProcessingDependencies) {}

  /**
   * What a media job works from: the story and the original file of its
   * current version, or undefined when the story is gone (deleted meanwhile)
   * or has no file (a composite, a story made from metadata).
   */
  async source(storyId: string): Promise<{ story: Story; original: StoryFile } | undefined> {
    const story = await this.deps.stories.find(storyId);
    if (!story) return undefined;
    const files = await this.deps.stories.files([story.id], story.versionNo);
    const original = files.find((file) => file.role === "original");
    return original ? { story, original } : undefined;
  }

  /** Records a rendition of a version (thumbnail, proxy…); returns the blob key it replaced, for the caller to delete. */
  async addRendition(
    rendition: Rendition,
    options: { transaction?: Kysely<Database> } = {},
  ): Promise<{ replacedBlobKey: string | null }> {
    const repository = options.transaction ? this.deps.stories.with(options.transaction) : this.deps.stories;
    const story = await repository.find(rendition.storyId);
    if (!story) throw new NotFound(`story ${rendition.storyId} does not exist`);
    const versionNo = rendition.versionNo ?? story.versionNo;
    const now = nowOf(this.deps);
    const write = async (trx: Kysely<Database>) => {
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
        .record(storyAction(null, story, "rendition", { versionNo, role: rendition.role }), now);
      return { replacedBlobKey };
    };
    // In the caller's transaction when given, else in one of its own.
    return options.transaction ? write(options.transaction) : this.deps.db.kysely.transaction().execute(write);
  }

  /**
   * What a media job extracted from the original of version `versionNo` (by
   * default the current one). Empty story fields are filled; people's values
   * stay. The pixel size is recorded on that version's original, and the
   * story's width and height are always its current version's: replaced,
   * not only filled, after a new version. A job that read a version which is
   * no longer current (a new version came meanwhile) records the size on its
   * own version and leaves the story to the new version's job.
   */
  async applyExtractedMetadata(storyId: string, fields: ExtractedMetadata, versionNo?: number): Promise<Story> {
    const story = await this.deps.stories.find(storyId);
    if (!story) throw new NotFound(`story ${storyId} does not exist`);
    const version = versionNo ?? story.versionNo;
    if (fields.width && fields.height) {
      await this.deps.stories.fillFileDimensions(story.id, version, "original", fields.width, fields.height);
    }
    if (version !== story.versionNo) return story;
    const { width: _width, height: _height, ...filled } = fields;
    const changes = extractedChanges(story, filled, (v) => this.deps.stories.json(v));
    const original = (await this.deps.stories.files([story.id], story.versionNo)).find(
      (file) => file.role === "original",
    );
    if (original?.width && original.height && (original.width !== story.width || original.height !== story.height)) {
      changes.width = original.width;
      changes.height = original.height;
    }
    if (Object.keys(changes).length === 0) return story;
    const now = nowOf(this.deps);
    await this.deps.db.kysely.transaction().execute(async (trx) => {
      await this.deps.stories.with(trx).update(story.id, changes);
      await this.deps.actions
        .with(trx)
        .record(storyAction(null, story, "metadata", { fields: Object.keys(changes) }), now);
    });
    // Keywords fill an empty list only, so all of them are new to the story.
    if (changes.keywords !== undefined) await this.deps.keywords.count([fields.keywords ?? []]);
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
        storyAction(null, story, "processing", { state, error: error ?? null }),
        nowOf(this.deps),
      );
    }
  }

  /** Stories that say processing is queued or running (for the processing module's repair; at most `limit`, ids after `after`). */
  inProcessing(limit: number, after?: string): Promise<string[]> {
    return this.deps.stories.inProcessing(limit, after);
  }

  /**
   * Processing failed, when its job will not report it any more (dead, or
   * gone): only while the story still says queued or running (a job that
   * finished meanwhile has said done or failed itself); with the story action.
   */
  async failStuckProcessing(storyId: string, reason: string): Promise<boolean> {
    const story = await this.deps.stories.find(storyId);
    if (!story || !(await this.deps.stories.failProcessing(storyId, reason))) return false;
    await this.deps.actions.record(
      storyAction(null, story, "processing", { state: "failed", error: reason }),
      nowOf(this.deps),
    );
    return true;
  }

  /**
   * Media processing of the story's current version once more (a
   * re-transcode, or an edited draft): the queued state, the job and the
   * story action commit together. `dedupeKey` keeps a second job from being
   * queued while one with the same key is queued or running.
   */
  async request(
    actor: Actor,
    libraryId: string,
    storyId: string,
    options: { dedupeKey?: string; reason: string },
  ): Promise<{ story: Story; jobId: string }> {
    const story = await this.deps.access.forWrite(actor, libraryId, storyId);
    if (!(await this.source(story.id))) {
      throw new Invalid(`story ${storyId} has no file to process`, "nothing_to_process");
    }
    const now = nowOf(this.deps);
    const jobId = await this.deps.db.kysely.transaction().execute(async (trx) => {
      await this.deps.stories.with(trx).update(story.id, { processing_state: "queued", processing_error: null });
      const id = await this.deps.processing.enqueueOne(trx, story.id, options.dedupeKey);
      await this.deps.actions.with(trx).record(
        storyAction(actor, story, "processing", {
          state: "queued",
          reason: options.reason,
          versionNo: story.versionNo,
          jobId: id,
        }),
        now,
      );
      await this.deps.audit.record(
        trx,
        actor,
        storyAudit(story, "reprocess", { details: { reason: options.reason, versionNo: story.versionNo, jobId: id } }),
      );
      return id;
    });
    return { story: (await this.deps.stories.find(story.id))!, jobId };
  }
}
