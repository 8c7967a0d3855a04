import type { Db } from "../../db/database.js";
import { Conflict } from "../../http/errors.js";
import type { AuditLog } from "../audit/audit-log.js";
import type { Actor } from "../auth/actor.js";
import type { StoriesService } from "../stories/stories.service.js";
import type { StoryAccess } from "../stories/story-access.js";
import type { Delivery } from "./deliveries.repository.js";
import type { DeliveriesService, DeliveryView } from "./deliveries.service.js";
import type { PublishingRepository, PublishRecord } from "./publishing.repository.js";

export interface PublishingDependencies {
  db: Db;
  records: PublishingRepository;
  access: StoryAccess;
  stories: StoriesService;
  deliveries: DeliveriesService;
  audit: AuditLog;
  clock?: () => Date;
}

export interface PublishInput {
  channel?: string | null;
  note?: string | null;
  channels?: string[];
  publishAt?: string | null;
  embargoUntil?: string | null;
}

export type PublishResult = PublishRecord & { deliveries: Delivery[]; embargoUntil: string | null };

/** Publishing a story: its record, its embargo, and one delivery per chosen channel. */
export class PublishingService {
  constructor(private readonly deps: PublishingDependencies) {}

  #now(): Date {
    return this.deps.clock?.() ?? new Date();
  }

  /**
   * A publish record, the story published, its embargo (when given; null
   * lifts it) and a delivery per channel that waits for `publishAt` — all in
   * one transaction, so no delivery exists without its record and job.
   */
  async publish(actor: Actor, libraryId: string, storyId: string, input: PublishInput): Promise<PublishResult> {
    const story = await this.deps.access.forWrite(actor, libraryId, storyId, "storyId");
    if (story.status === "draft") throw new Conflict("a draft is committed before it is published", "not_committed");
    const channels = [...new Set(input.channels ?? [])];
    await this.deps.deliveries.checkChannels(channels);
    const now = this.#now().toISOString();
    const publishAt = input.publishAt ? new Date(input.publishAt).toISOString() : null;
    return this.deps.db.kysely
      .transaction()
      .execute(async (trx) => {
        const record = await this.deps.records.with(trx).add({
          libraryId: story.libraryId,
          storyId: story.id,
          versionNo: story.versionNo,
          channel: input.channel ?? null,
          note: input.note ?? null,
          status: "published",
          publishedBy: actor.id,
          publishedAt: now,
        });
        if (input.embargoUntil !== undefined) {
          const until = input.embargoUntil === null ? null : new Date(input.embargoUntil).toISOString();
          await this.deps.deliveries.setEmbargo(trx, actor, story, until);
        }
        const deliveries: Delivery[] = [];
        for (const channelId of channels) {
          deliveries.push(await this.deps.deliveries.create(trx, actor, story, channelId, "publish", publishAt));
        }
        const details = {
          recordId: record.id,
          channel: record.channel,
          versionNo: record.versionNo,
          channels,
          publishAt,
          ...(input.embargoUntil !== undefined ? { embargoUntil: input.embargoUntil } : {}),
        };
        await this.deps.stories.markPublished(actor, story, details, now, trx);
        return { ...record, deliveries };
      })
      .then(async (result) => ({ ...result, embargoUntil: await this.deps.deliveries.embargoOf(story.id) }));
  }

  /**
   * Withdraws a story: open publish deliveries stop, and every channel it
   * went to (or those named) receives a kill (ninjs pubstatus canceled,
   * NewsML-G2 stat:canceled; file channels delete its files).
   */
  async withdraw(
    actor: Actor,
    libraryId: string,
    storyId: string,
    input: { channels?: string[] },
  ): Promise<Delivery[]> {
    const story = await this.deps.access.forWrite(actor, libraryId, storyId, "storyId");
    const targets = input.channels?.length
      ? [...new Set(input.channels)]
      : await this.deps.deliveries.deliveredChannels(story.id);
    if (targets.length === 0) throw new Conflict("the story was not delivered to any channel", "nothing_to_withdraw");
    await this.deps.deliveries.checkChannels(targets);
    const { stopped, kills } = await this.deps.db.kysely.transaction().execute(async (trx) => {
      const stopped = await this.deps.deliveries.cancelOpenPublishes(trx, story.id, input.channels);
      const kills: Delivery[] = [];
      for (const channelId of targets)
        kills.push(await this.deps.deliveries.create(trx, actor, story, channelId, "kill", null));
      await this.deps.audit.record(trx, actor, {
        action: "story.withdraw",
        target: { type: "story", id: story.id, label: story.title },
        details: { libraryId: story.libraryId, channels: targets, kills: kills.map((kill) => kill.id) },
      });
      return { stopped, kills };
    });
    await this.deps.deliveries.cancelJobs(stopped);
    return kills;
  }

  async deliveriesOf(
    actor: Actor,
    libraryId: string,
    storyId: string,
  ): Promise<{ embargoUntil: string | null; deliveries: DeliveryView[] }> {
    const story = await this.deps.access.forRead(actor, libraryId, storyId, "storyId");
    return {
      embargoUntil: await this.deps.deliveries.embargoOf(story.id),
      deliveries: await this.deps.deliveries.ofStory(story.id),
    };
  }
}
