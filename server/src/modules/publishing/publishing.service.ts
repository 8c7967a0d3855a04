import type { Db } from "../../db/database.js";
import { AppError, Conflict } from "../../http/errors.js";
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

export interface StoryRef {
  libraryId: string;
  storyId: string;
}

/** What became of one story of a selection published at once. */
export interface BatchPublishOutcome extends StoryRef {
  title: string | null;
  ok: boolean;
  /** The deliveries made (one per channel), when ok. */
  deliveryIds: string[];
  /** Why it was refused: `embargoed`, `not_committed`, `forbidden`, `not_found`… */
  code: string | null;
  message: string | null;
  /** For an embargoed story: until when. */
  embargoUntil: string | null;
}

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
      .then(async (result) => {
        await this.deps.deliveries.announce(result.deliveries);
        return { ...result, embargoUntil: await this.deps.deliveries.embargoOf(story.id) };
      });
  }

  /**
   * Publishes a selection (the grid's "publish"): per story the same path as
   * one story's publish (a record and a durable delivery per channel), each
   * story on its own, so one refusal does not stop the others. Refused per
   * story: one the user may not change (their library write), a draft, and
   * one under an embargo now (with its end: a selection is sent now or at
   * `publishAt`, and an embargoed story is published from the viewer, where
   * the embargo is seen and set). Unknown or disabled channels refuse the
   * whole request.
   */
  async publishMany(
    actor: Actor,
    input: { stories: StoryRef[]; channels: string[]; publishAt?: string | null },
  ): Promise<BatchPublishOutcome[]> {
    const channels = [...new Set(input.channels)];
    await this.deps.deliveries.checkChannels(channels);
    const seen = new Set<string>();
    const refs = input.stories.filter((ref) => !seen.has(ref.storyId) && seen.add(ref.storyId));
    const outcomes: BatchPublishOutcome[] = [];
    for (const ref of refs) {
      const base = { ...ref, title: null, ok: false, deliveryIds: [], embargoUntil: null };
      try {
        const story = await this.deps.access.forWrite(actor, ref.libraryId, ref.storyId, "storyId");
        const embargo = (await this.deps.deliveries.embargoedNow([story.id])).get(story.id);
        if (embargo) {
          outcomes.push({
            ...base,
            title: story.title,
            code: "embargoed",
            message: `embargoed until ${embargo}`,
            embargoUntil: embargo,
          });
          continue;
        }
        const result = await this.publish(actor, ref.libraryId, ref.storyId, {
          channels,
          publishAt: input.publishAt ?? null,
        });
        outcomes.push({
          ...base,
          title: story.title,
          ok: true,
          deliveryIds: result.deliveries.map((delivery) => delivery.id),
          code: null,
          message: null,
        });
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        outcomes.push({ ...base, code: error.code, message: error.message });
      }
    }
    return outcomes;
  }

  /**
   * Per enabled channel, how many of the stories (those the user may read)
   * already went there: the grid's publish dialog.
   */
  async deliveredCounts(actor: Actor, stories: StoryRef[]): Promise<{ channelId: string; stories: number }[]> {
    const readable: string[] = [];
    for (const ref of stories) {
      try {
        readable.push((await this.deps.access.forRead(actor, ref.libraryId, ref.storyId)).id);
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
      }
    }
    return this.deps.deliveries.deliveredStoryCounts(readable);
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
    await this.deps.deliveries.announce(kills);
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
