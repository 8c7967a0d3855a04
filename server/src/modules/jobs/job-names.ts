/**
 * Every job the server runs, by name, and its payload: ids, never blobs (the
 * handler reloads what it needs). Work is enqueued by name —
 * `jobs.enqueue("stories.process", { ids })`, type-checked against this map —
 * and the module that does the work registers the handler
 * (`jobs.register({ name: "stories.process", run })`). A new job is one line
 * here, its handler in its module, and a row in docs/architecture.md ("Jobs").
 */
export interface JobPayloads {
  /** Renditions and extracted metadata of each story (processing/StoryMediaProcessor). */
  "stories.process": { ids: string[] };
  /** A batch edit of story metadata, story by story, each reported (story-batch/story-batch.service.ts). */
  "stories.batch-edit": { batchId: string };
  /** One URL of the download centre into a blob and a draft story (url-ingest/url-fetch.job.ts). */
  "url-ingest.fetch": { fetchId: string };
  /** An edit decision list rendered to an MP4 and its poster (video-edit/render-job-definition.ts). */
  "video-edit.render": { renderId: string };
  /** Hourly: renders no story took are removed a day after they were made (video-edit/render-expiry.job.ts). */
  "video-edit.expire": Record<string, never>;
  /** A download preset's rendition of one story version (presets/rendition-maker.ts). */
  "presets.render": { renditionId: string };
  /** One (story, channel) delivery: the files and the item out to the channel, or a kill (publishing/delivery.job.ts). */
  "publishing.deliver": { deliveryId: string };
  /** A story event (committed, published, tagged) matched against the enabled rules; one run per matched rule (actions/action-runner.ts). */
  "actions.evaluate": {
    eventId: string;
    kind: "committed" | "published" | "tagged";
    libraryId: string;
    storyId: string;
    actorId: string | null;
    tags?: string[];
    /** The rules whose runs caused the event: they do not react to it again. */
    chain: string[];
  };
  /** One rule's run on one story: its steps in order, the outcome recorded (actions/action-runner.ts). */
  "actions.run": { runId: string; chain: string[] };
  /** A library's files moved to another storage target, verified, resumable (storage/move-library.job.ts). */
  "storage.move-library": { moveId: string };
  /** Every registered blob read back and compared with its SHA-256, resumable (storage/integrity-check.job.ts). */
  "storage.integrity-check": { checkId: string };
  /** Housekeeping every six hours: orphaned blobs, abandoned uploads, old jobs (maintenance/). */
  maintenance: Record<string, never>;
}

export type JobName = keyof JobPayloads;
