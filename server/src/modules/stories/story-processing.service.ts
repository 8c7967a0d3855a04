import type { Kysely } from "kysely";
import type { Database, ProcessingState } from "../../db/schema.js";
import { NotFound } from "../../http/errors.js";
import { type ExtractedMetadata, extractedChanges } from "./story-metadata.js";
import type { Story, StoryFile } from "./story-types.js";
import type { StoriesServiceDependencies, StoryWriteSupport } from "./story-write-support.js";

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

/** What the media jobs write back: renditions, extracted metadata, the processing state (the system acts). */
export class StoryProcessing {
  constructor(
    private readonly deps: StoriesServiceDependencies,
    private readonly support: StoryWriteSupport,
  ) {}

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
    const now = this.support.now();
    return this.support.transaction(options.transaction, async (trx) => {
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
        .record(this.support.action(null, story)("rendition", { versionNo, role: rendition.role }), now);
      return { replacedBlobKey };
    });
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
    const now = this.support.now();
    await this.deps.db.kysely.transaction().execute(async (trx) => {
      await this.deps.stories.with(trx).update(story.id, changes);
      await this.deps.actions
        .with(trx)
        .record(this.support.action(null, story)("metadata", { fields: Object.keys(changes) }), now);
    });
    // Keywords fill an empty list only, so all of them are new to the story.
    if (changes.keywords !== undefined) await this.support.countKeywordUse([fields.keywords ?? []]);
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
        this.support.action(null, story)("processing", { state, error: error ?? null }),
        this.support.now(),
      );
    }
  }
}
