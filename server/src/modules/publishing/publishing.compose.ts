import type { Db } from "../../db/database.js";
import type { AuditLog } from "../audit/audit-log.js";
import type { BlobStore } from "../blobs/blob-store.js";
import type { ChannelsService } from "../channels/channels.service.js";
import type { JobEnqueuer, JobRegistrar } from "../jobs/job-types.js";
import type { OutgoingCopies } from "../outgoing/outgoing-copies.js";
import type { DownloadPresetsService } from "../presets/download-presets.service.js";
import type { StoriesService } from "../stories/stories.service.js";
import type { StoryAccess } from "../stories/story-access.js";
import type { StoryQueries } from "../stories/story-queries.service.js";
import { DeliveriesRepository } from "./deliveries.repository.js";
import { DeliveriesService } from "./deliveries.service.js";
import { deliveryJob } from "./delivery.job.js";
import { DeliveryEvents } from "./delivery-events.js";
import { PublishingRepository } from "./publishing.repository.js";
import { PublishingService } from "./publishing.service.js";

export interface PublishingModule {
  publishing: PublishingService;
  deliveries: DeliveriesService;
  /** Delivery changes on every node (the publish monitor's live stream). */
  events: DeliveryEvents;
}

/** Builds the publishing services once and registers the delivery job (called by app.ts). */
export function buildPublishing(
  db: Db,
  deps: {
    access: StoryAccess;
    stories: StoriesService;
    queries: StoryQueries;
    channels: ChannelsService;
    blobs: BlobStore;
    jobs: JobEnqueuer & JobRegistrar & { cancel(jobId: string): Promise<unknown> };
    audit: AuditLog;
    /** The presets module: a channel's preset rendition of a story, made now when missing. */
    renditions: Pick<DownloadPresetsService, "ensureRendered">;
    /** Originals leave with the story's metadata embedded (the outgoing module). */
    outgoing: Pick<OutgoingCopies, "file">;
    /** The properties a delivery's publisher may not see: not embedded in what it sends (delivery.job). */
    publisherHidden: (createdBy: string | null) => Promise<ReadonlySet<string>>;
  },
): PublishingModule {
  const repository = new DeliveriesRepository(db.kysely);
  const events = new DeliveryEvents(db.notifications);
  const deliveries = new DeliveriesService({
    events,
    db,
    deliveries: repository,
    channels: deps.channels,
    jobs: deps.jobs,
    audit: deps.audit,
  });
  deps.jobs.register(
    deliveryJob({
      deliveries: repository,
      channels: deps.channels,
      stories: deps.stories,
      queries: deps.queries,
      blobs: deps.blobs,
      jobs: deps.jobs,
      renditions: deps.renditions,
      outgoing: deps.outgoing,
      publisherHidden: deps.publisherHidden,
      events,
    }),
  );
  const publishing = new PublishingService({
    db,
    records: new PublishingRepository(db.kysely),
    access: deps.access,
    stories: deps.stories,
    deliveries,
    audit: deps.audit,
  });
  return { publishing, deliveries, events };
}
