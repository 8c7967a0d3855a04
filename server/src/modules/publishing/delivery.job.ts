import type { BlobStore } from "../blobs/blob-store.js";
import type { ChannelsService } from "../channels/channels.service.js";
import { itemDocument } from "../channels/formats/index.js";
import { DeliveryError, type DeliveryPackage, type OutgoingFile } from "../channels/transports/index.js";
import { type JobEnqueuer, type JobHandler, jobFailed, jobSkipped, jobSucceeded } from "../jobs/job-types.js";
import type { OutgoingCopies } from "../outgoing/outgoing-copies.js";
import type { DownloadPresetsService } from "../presets/download-presets.service.js";
import type { StoriesService } from "../stories/stories.service.js";
import type { StoryQueries } from "../stories/story-queries.service.js";
import type { Story, StoryFile } from "../stories/story-types.js";
import type { DeliveriesRepository, Delivery, DeliveryState } from "./deliveries.repository.js";
import type { DeliveryEvents } from "./delivery-events.js";

/** Attempts of one delivery before it is failed for good (the dead-letter reason is its last error). */
export const DELIVERY_ATTEMPTS = 5;
/** The longest a receiver's Retry-After holds a delivery back before its next attempt (a longer ask is cut to this). */
export const DELIVERY_MAX_RETRY_AFTER_MS = 10 * 60_000;

export interface DeliveryJobDependencies {
  deliveries: DeliveriesRepository;
  channels: Pick<ChannelsService, "open">;
  stories: Pick<StoriesService, "processingSource">;
  queries: Pick<StoryQueries, "require">;
  blobs: Pick<BlobStore, "get" | "stat">;
  /** The original with the story's current metadata embedded (the outgoing module). */
  outgoing: Pick<OutgoingCopies, "file">;
  jobs: JobEnqueuer;
  /** A download preset's rendition of a story, made now when missing (the presets module). */
  renditions: Pick<DownloadPresetsService, "ensureRendered">;
  /**
   * The properties not written into what a delivery sends (field-level access): those its publisher
   * (`createdBy`) may not see; for a delivery without one, or whose user is gone, those hidden from any role.
   */
  publisherHidden: (createdBy: string | null) => Promise<ReadonlySet<string>>;
  /** Tells open publish monitors on every node (absent: nobody is told). */
  events?: Pick<DeliveryEvents, "changed">;
  clock?: () => Date;
  timeoutMs?: number;
}

const EXTENSIONS: Record<string, string> = {
  "image/jpeg": "jpg",
  "image/png": "png",
  "image/webp": "webp",
  "image/avif": "avif",
  "image/gif": "gif",
  "image/tiff": "tif",
  "image/heic": "heic",
  "video/mp4": "mp4",
  "video/quicktime": "mov",
  "audio/mpeg": "mp3",
  "audio/mp4": "m4a",
  "audio/wav": "wav",
};

/** The delivered name of a story's original: `<story id>.<extension>`, stable across attempts and resends. */
function originalName(story: Story, original: StoryFile): string {
  const fromName = story.originalName?.match(/\.([A-Za-z0-9]{1,5})$/)?.[1]?.toLowerCase();
  return `${story.id}.${EXTENSIONS[original.mime] ?? fromName ?? "bin"}`;
}

/**
 * One (story, channel) delivery, as a durable job ("publishing.deliver"):
 * reloads the delivery, waits out an embargo (re-enqueued for its end),
 * builds the package (the rendition of the channel's download preset for
 * the story's type, else the original; the item in the
 * channel's format) and hands it to the channel's transport. A failure that
 * may pass is retried with the queue's backoff (state retrying) up to
 * DELIVERY_ATTEMPTS; then, or at once for one that never will, the delivery
 * is failed with the reason. Idempotent: a delivery already succeeded or
 * cancelled is skipped, and every attempt carries the same delivery id.
 */
export function deliveryJob(deps: DeliveryJobDependencies): JobHandler<"publishing.deliver"> {
  const now = () => (deps.clock?.() ?? new Date()).toISOString();
  const told = (id: string, state: DeliveryState) => deps.events?.changed([{ id, state }]);
  return {
    name: "publishing.deliver",
    maxAttempts: DELIVERY_ATTEMPTS,
    timeoutMs: deps.timeoutMs ?? 10 * 60_000,
    async run({ deliveryId }, { attempt, signal, jobId }) {
      const delivery = await deps.deliveries.find(deliveryId);
      if (!delivery) return jobSkipped(`delivery ${deliveryId} is gone`);
      if (delivery.jobId && delivery.jobId !== jobId) return jobSkipped(`delivery ${deliveryId} has a newer job`);
      if (delivery.state === "succeeded" || delivery.state === "cancelled" || delivery.state === "failed")
        return jobSkipped(`delivery ${deliveryId} is ${delivery.state}`);
      const embargo = delivery.action === "publish" ? await deps.deliveries.embargoOf(delivery.storyId) : null;
      if (embargo && Date.parse(embargo) > Date.parse(now())) {
        const next = await deps.jobs.enqueue(
          "publishing.deliver",
          { deliveryId },
          { runAt: embargo, storyId: delivery.storyId },
        );
        await deps.deliveries.update(deliveryId, { state: "pending", job_id: next, not_before: embargo }, now());
        await told(deliveryId, "pending");
        return jobSkipped(`embargoed until ${embargo}`);
      }
      const startedAt = now();
      const moved = await deps.deliveries.transition(
        deliveryId,
        ["pending", "retrying", "in_progress"],
        { state: "in_progress", attempts: delivery.attempts + 1, started_at: startedAt },
        startedAt,
      );
      if (!moved) return jobSkipped(`delivery ${deliveryId} changed meanwhile`);
      await told(deliveryId, "in_progress");
      try {
        await send(deps, delivery, embargo, signal, startedAt);
      } catch (error) {
        const reason = error instanceof DeliveryError ? error.message : `unexpected: ${(error as Error).message}`;
        const retry = !(error instanceof DeliveryError) || error.retry;
        const last = !retry || attempt >= DELIVERY_ATTEMPTS;
        const at = now();
        // A 429/503 that said when to come back: the next attempt waits at least that long (bounded).
        const asked = error instanceof DeliveryError && !last ? error.retryAfterMs : undefined;
        const waitMs = asked === undefined ? undefined : Math.min(asked, DELIVERY_MAX_RETRY_AFTER_MS);
        const nextAt = waitMs === undefined ? null : new Date(Date.parse(at) + waitMs).toISOString();
        const waited =
          waitMs === undefined
            ? ""
            : ` (Retry-After: waiting ${Math.ceil(waitMs / 1000)} s${asked !== waitMs ? ` of the ${Math.ceil(asked! / 1000)} s asked` : ""}, next attempt at ${nextAt})`;
        await deps.deliveries.transition(
          deliveryId,
          ["in_progress"],
          {
            state: last ? "failed" : "retrying",
            last_error: last && retry ? `gave up after ${attempt} attempts: ${reason}` : `${reason}${waited}`,
            finished_at: last ? at : null,
            duration_ms: Date.parse(at) - Date.parse(startedAt),
            ...(nextAt ? { not_before: nextAt } : {}),
          },
          at,
        );
        await told(deliveryId, last ? "failed" : "retrying");
        return jobFailed(reason, { retry: !last, ...(waitMs === undefined ? {} : { delayMs: waitMs }) });
      }
      const at = now();
      await deps.deliveries.transition(
        deliveryId,
        ["in_progress"],
        { state: "succeeded", finished_at: at, duration_ms: Date.parse(at) - Date.parse(startedAt) },
        at,
      );
      await told(deliveryId, "succeeded");
      return jobSucceeded;
    },
  };
}

async function send(
  deps: DeliveryJobDependencies,
  delivery: Delivery,
  embargo: string | null,
  signal: AbortSignal,
  startedAt: string,
): Promise<void> {
  const channel = await deps.channels.open(delivery.channelId);
  if (!channel) throw new DeliveryError("the channel was deleted", false);
  if (!channel.enabled) throw new DeliveryError(`the channel ${channel.name} is disabled`, false);
  let story: Story;
  try {
    story = await deps.queries.require(delivery.libraryId, delivery.storyId);
  } catch {
    throw new DeliveryError("the story was deleted", false);
  }
  const files: (OutgoingFile & { role: string; width: number | null; height: number | null })[] = [];
  // The publisher's hidden properties: neither embedded in the files nor written in the item (a kill's too).
  const hidden = await deps.publisherHidden(delivery.createdBy);
  if (delivery.action === "publish") {
    const presetId = channel.presets[story.type as keyof typeof channel.presets];
    if (presetId) files.push(await presetRendition(deps, presetId, delivery, story, signal, hidden));
    else {
      const source = await deps.stories.processingSource(story.id);
      if (source) {
        const { original } = source;
        const name = originalName(story, original);
        const outgoing = await deps.outgoing.file(
          { blobKey: original.blobKey, fileName: name, contentType: original.mime },
          story,
          { level: "all", hidden, signal },
        );
        const size =
          outgoing.blobKey === original.blobKey
            ? original.size
            : ((await deps.blobs.stat(outgoing.blobKey))?.size ?? original.size);
        files.push({
          name,
          mime: original.mime,
          size,
          role: "original",
          width: original.width,
          height: original.height,
          open: () => deps.blobs.get(outgoing.blobKey),
        });
      }
    }
  }
  const limit = channel.maxFileBytes;
  for (const file of files) {
    if (limit !== null && file.size > limit)
      throw new DeliveryError(
        `the ${file.role} ${file.name} is ${megabytes(file.size)} MB (${file.size} bytes), over the channel's limit of ${megabytes(limit)} MB`,
        false,
      );
  }
  const baseName = story.id;
  const item = itemDocument(channel.format, baseName, {
    story,
    deliveryId: delivery.id,
    action: delivery.action,
    mapping: channel.fieldMapping,
    hidden,
    embargoUntil: embargo,
    files,
    now: startedAt,
  });
  const pkg: DeliveryPackage = {
    deliveryId: delivery.id,
    action: delivery.action,
    baseName,
    files,
    item,
    title: story.title,
  };
  await channel.transport.deliver(pkg, signal);
}

/** Bytes as MB of 10^6, one decimal at most: 1 500 000 → "1.5". */
function megabytes(bytes: number): string {
  return String(Math.round(bytes / 100_000) / 10);
}

/** The channel's preset rendition of the story (made now when missing), named `<story id>.<the rendition's extension>`. */
async function presetRendition(
  deps: DeliveryJobDependencies,
  presetId: string,
  delivery: Delivery,
  story: Story,
  signal: AbortSignal,
  hidden?: ReadonlySet<string>,
): Promise<OutgoingFile & { role: string; width: number | null; height: number | null }> {
  let file: Awaited<ReturnType<DeliveryJobDependencies["renditions"]["ensureRendered"]>>;
  try {
    file = await deps.renditions.ensureRendered(
      presetId,
      { libraryId: delivery.libraryId, storyId: story.id },
      signal,
      { hidden },
    );
  } catch (error) {
    const message = (error as Error).message;
    // A preset deleted since, or a rendition that cannot be made, will not pass by trying again.
    throw new DeliveryError(
      `the download preset's rendition could not be made: ${message}`,
      !/no download preset/.test(message),
    );
  }
  const extension =
    EXTENSIONS[file.contentType] ?? file.fileName.match(/\.([A-Za-z0-9]{1,5})$/)?.[1]?.toLowerCase() ?? "bin";
  return {
    name: `${story.id}.${extension}`,
    mime: file.contentType,
    size: file.size,
    role: "rendition",
    width: null,
    height: null,
    open: () => deps.blobs.get(file.blobKey),
  };
}
