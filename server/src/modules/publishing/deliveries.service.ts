import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { Db } from "../../db/database.js";
import type { Database } from "../../db/schema.js";
import { Conflict, Invalid, NotFound } from "../../http/errors.js";
import type { AuditLog } from "../audit/audit-log.js";
import type { Actor } from "../auth/actor.js";
import type { ChannelsService } from "../channels/channels.service.js";
import type { JobEnqueuer } from "../jobs/job-types.js";
import type { Story } from "../stories/story-types.js";
import type {
  ChannelDeliveryStats,
  DeliveriesRepository,
  Delivery,
  DeliveryAction,
  DeliveryFilter,
  DeliveryState,
} from "./deliveries.repository.js";
import type { DeliveryEvents } from "./delivery-events.js";

export interface DeliveriesDependencies {
  db: Db;
  deliveries: DeliveriesRepository;
  channels: Pick<ChannelsService, "options" | "list">;
  jobs: JobEnqueuer & { cancel(jobId: string): Promise<unknown> };
  audit: AuditLog;
  /** Tells open publish monitors on every node. */
  events?: Pick<DeliveryEvents, "changed">;
  clock?: () => Date;
}

export type DeliveryView = Delivery & { channelName: string | null };

const OPEN: DeliveryState[] = ["pending", "in_progress", "retrying"];

/** Deliveries: creating them with their jobs, the monitor's list and counts, retry, cancel, resend. */
export class DeliveriesService {
  constructor(private readonly deps: DeliveriesDependencies) {}

  #now(): string {
    return (this.deps.clock?.() ?? new Date()).toISOString();
  }

  /** Tells open publish monitors that these deliveries changed (call after the transaction committed). */
  async announce(deliveries: Pick<Delivery, "id" | "state">[]): Promise<void> {
    await this.deps.events?.changed(deliveries.map(({ id, state }) => ({ id, state })));
  }

  /** Checks channel ids a publisher chose: each an enabled channel. */
  async checkChannels(ids: string[]): Promise<void> {
    const enabled = new Set((await this.deps.channels.options()).map((option) => option.id));
    const unknown = ids.filter((id) => !enabled.has(id));
    if (unknown.length > 0) throw new Invalid(`channels: no enabled channel ${unknown.join(", ")}`, "unknown_channel");
  }

  /** One delivery and its job, in the caller's transaction. */
  async create(
    trx: Kysely<Database>,
    actor: Actor | null,
    story: Pick<Story, "id" | "libraryId" | "title" | "versionNo">,
    channelId: string,
    action: DeliveryAction,
    notBefore: string | null,
  ): Promise<Delivery> {
    const now = this.#now();
    const delivery: Delivery = {
      id: randomUUID(),
      channelId,
      libraryId: story.libraryId,
      storyId: story.id,
      storyTitle: story.title.slice(0, 500),
      versionNo: story.versionNo,
      action,
      state: "pending",
      attempts: 0,
      lastError: null,
      jobId: null,
      notBefore,
      startedAt: null,
      finishedAt: null,
      durationMs: null,
      createdBy: actor?.id ?? null,
      createdAt: now,
      updatedAt: now,
    };
    const repository = this.deps.deliveries.with(trx);
    await repository.insert(delivery);
    delivery.jobId = await this.#enqueue(trx, delivery);
    return delivery;
  }

  async #enqueue(trx: Kysely<Database>, delivery: Delivery): Promise<string> {
    const jobId = await this.deps.jobs.enqueue(
      "publishing.deliver",
      { deliveryId: delivery.id },
      { transaction: trx, storyId: delivery.storyId, ...(delivery.notBefore ? { runAt: delivery.notBefore } : {}) },
    );
    await this.deps.deliveries.with(trx).update(delivery.id, { job_id: jobId }, this.#now());
    return jobId;
  }

  async setEmbargo(trx: Kysely<Database>, actor: Actor, story: Pick<Story, "id" | "libraryId">, until: string | null) {
    await this.deps.deliveries.with(trx).setEmbargo(story.libraryId, story.id, until, actor.id, this.#now());
  }

  /** Those of these stories under an embargo now, with its end (share links refuse them). */
  async embargoedNow(storyIds: string[]): Promise<Map<string, string>> {
    const now = Date.parse(this.#now());
    const all = await this.deps.deliveries.embargoesOf([...new Set(storyIds)]);
    return new Map([...all].filter(([, until]) => Date.parse(until) > now));
  }

  embargoOf(storyId: string): Promise<string | null> {
    return this.deps.deliveries.embargoOf(storyId);
  }

  async #names(): Promise<Map<string, string>> {
    return new Map((await this.deps.channels.list()).map((channel) => [channel.id, channel.name]));
  }

  async ofStory(storyId: string): Promise<DeliveryView[]> {
    const names = await this.#names();
    return (await this.deps.deliveries.ofStory(storyId)).map((d) => ({
      ...d,
      channelName: names.get(d.channelId) ?? null,
    }));
  }

  async page(filter: DeliveryFilter, page: number, size: number): Promise<{ content: DeliveryView[]; total: number }> {
    const names = await this.#names();
    const { content, total } = await this.deps.deliveries.page(filter, page, size);
    return { content: content.map((d) => ({ ...d, channelName: names.get(d.channelId) ?? null })), total };
  }

  /** Per channel, how many of these stories already went there (a publish delivery succeeded). */
  deliveredStoryCounts(storyIds: string[]): Promise<{ channelId: string; stories: number }[]> {
    return this.deps.deliveries.deliveredStoryCounts([...new Set(storyIds)]);
  }

  /** How many deliveries to a channel are still to be sent (a channel with some is not deleted). */
  openCount(channelId: string): Promise<number> {
    return this.deps.deliveries.openCount(channelId);
  }

  /** Deliveries by channel (id and name) and state, for `/metrics`. */
  async countsByChannelAndState(): Promise<{ channelId: string; channelName: string; state: string; count: number }[]> {
    const names = await this.#names();
    return (await this.deps.deliveries.countByChannelAndState()).map((row) => ({
      ...row,
      channelName: names.get(row.channelId) ?? "",
    }));
  }

  /** Per channel: counts, success rate over finished deliveries, the last error. Channels without deliveries too. */
  async stats(): Promise<(ChannelDeliveryStats & { channelName: string; successRate: number | null })[]> {
    const channels = await this.deps.channels.list();
    const counts = new Map((await this.deps.deliveries.stats()).map((row) => [row.channelId, row]));
    return channels.map((channel) => {
      const row = counts.get(channel.id) ?? {
        channelId: channel.id,
        total: 0,
        succeeded: 0,
        failed: 0,
        open: 0,
        lastError: null,
        lastErrorAt: null,
        lastState: null,
        lastAt: null,
      };
      const finished = row.succeeded + row.failed;
      return { ...row, channelName: channel.name, successRate: finished > 0 ? row.succeeded / finished : null };
    });
  }

  async #require(id: string): Promise<Delivery> {
    const delivery = await this.deps.deliveries.find(id);
    if (!delivery) throw new NotFound("no such delivery", "delivery_not_found");
    return delivery;
  }

  async #view(id: string): Promise<DeliveryView> {
    const delivery = await this.#require(id);
    return { ...delivery, channelName: (await this.#names()).get(delivery.channelId) ?? null };
  }

  /** A failed or cancelled delivery tries again (same delivery id, so the receiver can de-duplicate). */
  async retry(actor: Actor, id: string): Promise<DeliveryView> {
    const delivery = await this.#require(id);
    if (delivery.state !== "failed" && delivery.state !== "cancelled")
      throw new Conflict(`a ${delivery.state} delivery is not retried`, "delivery_not_retryable");
    await this.deps.db.kysely.transaction().execute(async (trx) => {
      const moved = await this.deps.deliveries
        .with(trx)
        .transition(
          id,
          ["failed", "cancelled"],
          { state: "pending", finished_at: null, not_before: null },
          this.#now(),
        );
      if (!moved) throw new Conflict("the delivery changed meanwhile", "delivery_changed");
      await this.#enqueue(trx, { ...delivery, notBefore: null });
      await this.#audit(trx, actor, "delivery.retry", delivery);
    });
    await this.announce([{ id, state: "pending" }]);
    return this.#view(id);
  }

  /** A pending or retrying delivery stops; its job is cancelled. */
  async cancel(actor: Actor, id: string): Promise<DeliveryView> {
    const delivery = await this.#require(id);
    await this.deps.db.kysely.transaction().execute(async (trx) => {
      const moved = await this.deps.deliveries
        .with(trx)
        .transition(id, OPEN, { state: "cancelled", finished_at: this.#now() }, this.#now());
      if (!moved) throw new Conflict(`a ${delivery.state} delivery is not cancelled`, "delivery_not_cancellable");
      await this.#audit(trx, actor, "delivery.cancel", delivery);
    });
    if (delivery.jobId) await this.deps.jobs.cancel(delivery.jobId).catch(() => undefined);
    await this.announce([{ id, state: "cancelled" }]);
    return this.#view(id);
  }

  /** The same story to the same channel again, as a new delivery (a new id: the receiver takes it as new). */
  async resend(actor: Actor, id: string): Promise<DeliveryView> {
    const delivery = await this.#require(id);
    const created = await this.deps.db.kysely.transaction().execute(async (trx) => {
      const fresh = await this.create(
        trx,
        actor,
        {
          id: delivery.storyId,
          libraryId: delivery.libraryId,
          title: delivery.storyTitle,
          versionNo: delivery.versionNo,
        },
        delivery.channelId,
        delivery.action,
        null,
      );
      await this.#audit(trx, actor, "delivery.resend", delivery, { newDeliveryId: fresh.id });
      return fresh;
    });
    await this.announce([created]);
    return this.#view(created.id);
  }

  /** Stops the story's open publish deliveries (all, or to `channelIds`); the ones stopped. */
  async cancelOpenPublishes(trx: Kysely<Database>, storyId: string, channelIds?: string[]): Promise<Delivery[]> {
    const repository = this.deps.deliveries.with(trx);
    const stopped: Delivery[] = [];
    for (const delivery of await repository.ofStory(storyId)) {
      if (delivery.action !== "publish" || !OPEN.includes(delivery.state)) continue;
      if (channelIds && !channelIds.includes(delivery.channelId)) continue;
      if (await repository.transition(delivery.id, OPEN, { state: "cancelled", finished_at: this.#now() }, this.#now()))
        stopped.push(delivery);
    }
    return stopped;
  }

  /** Channels the story went to (a publish delivery succeeded), for a withdraw. */
  async deliveredChannels(storyId: string): Promise<string[]> {
    const delivered = (await this.deps.deliveries.ofStory(storyId)).filter(
      (delivery) => delivery.action === "publish" && delivery.state === "succeeded",
    );
    return [...new Set(delivered.map((delivery) => delivery.channelId))];
  }

  /** Cancels the jobs of deliveries stopped in a committed transaction. */
  async cancelJobs(deliveries: Delivery[]): Promise<void> {
    for (const delivery of deliveries)
      if (delivery.jobId) await this.deps.jobs.cancel(delivery.jobId).catch(() => undefined);
    await this.announce(deliveries.map((delivery) => ({ id: delivery.id, state: "cancelled" as const })));
  }

  async #audit(
    trx: Kysely<Database>,
    actor: Actor,
    action: string,
    delivery: Delivery,
    details: Record<string, unknown> = {},
  ) {
    await this.deps.audit.record(trx, actor, {
      action,
      target: { type: "delivery", id: delivery.id, label: delivery.storyTitle },
      details: { channelId: delivery.channelId, storyId: delivery.storyId, state: delivery.state, ...details },
    });
  }
}
