import { type Kysely, sql } from "kysely";
import type { Database, DeliveriesTable } from "../../db/schema.js";

export const DELIVERY_STATES = ["pending", "in_progress", "retrying", "succeeded", "cancelled", "failed"] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];
export type DeliveryAction = "publish" | "kill";

export interface Delivery {
  id: string;
  channelId: string;
  libraryId: string;
  storyId: string;
  storyTitle: string;
  versionNo: number;
  action: DeliveryAction;
  state: DeliveryState;
  attempts: number;
  lastError: string | null;
  jobId: string | null;
  notBefore: string | null;
  startedAt: string | null;
  finishedAt: string | null;
  durationMs: number | null;
  createdBy: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface DeliveryFilter {
  state?: DeliveryState[];
  channelId?: string;
  storyId?: string;
  keyword?: string;
}

export interface ChannelDeliveryStats {
  channelId: string;
  total: number;
  succeeded: number;
  failed: number;
  open: number;
  lastError: string | null;
  lastErrorAt: string | null;
  /** The newest delivery's state and when it last changed. */
  lastState: DeliveryState | null;
  lastAt: string | null;
}

const iso = (value: unknown) =>
  value === null || value === undefined ? null : new Date(value as string).toISOString();

function toDelivery(row: DeliveriesTable): Delivery {
  return {
    id: row.id,
    channelId: row.channel_id,
    libraryId: row.library_id,
    storyId: row.story_id,
    storyTitle: row.story_title,
    versionNo: row.version_no,
    action: row.action as DeliveryAction,
    state: row.state as DeliveryState,
    attempts: row.attempts,
    lastError: row.last_error,
    jobId: row.job_id,
    notBefore: iso(row.not_before),
    startedAt: iso(row.started_at),
    finishedAt: iso(row.finished_at),
    durationMs: row.duration_ms,
    createdBy: row.created_by,
    createdAt: iso(row.created_at)!,
    updatedAt: iso(row.updated_at)!,
  };
}

type DeliveryPatch = Partial<
  Pick<
    DeliveriesTable,
    "state" | "attempts" | "last_error" | "job_id" | "not_before" | "started_at" | "finished_at" | "duration_ms"
  >
>;

/** SQL of deliveries and story embargoes. */
export class DeliveriesRepository {
  constructor(private readonly kysely: Kysely<Database>) {}

  with(executor: Kysely<Database>): DeliveriesRepository {
    return new DeliveriesRepository(executor);
  }

  async insert(delivery: Delivery): Promise<void> {
    await this.kysely
      .insertInto("deliveries")
      .values({
        id: delivery.id,
        channel_id: delivery.channelId,
        library_id: delivery.libraryId,
        story_id: delivery.storyId,
        story_title: delivery.storyTitle,
        version_no: delivery.versionNo,
        action: delivery.action,
        state: delivery.state,
        attempts: delivery.attempts,
        last_error: delivery.lastError,
        job_id: delivery.jobId,
        not_before: delivery.notBefore,
        started_at: delivery.startedAt,
        finished_at: delivery.finishedAt,
        duration_ms: delivery.durationMs,
        created_by: delivery.createdBy,
        created_at: delivery.createdAt,
        updated_at: delivery.updatedAt,
      })
      .execute();
  }

  async find(id: string): Promise<Delivery | undefined> {
    const row = await this.kysely.selectFrom("deliveries").selectAll().where("id", "=", id).executeTakeFirst();
    return row ? toDelivery(row) : undefined;
  }

  async update(id: string, patch: DeliveryPatch, at: string): Promise<void> {
    await this.kysely
      .updateTable("deliveries")
      .set({ ...patch, updated_at: at })
      .where("id", "=", id)
      .execute();
  }

  /** Moves a delivery to `state` only from one of `from` (a cancel never overwrites a success); whether it moved. */
  async transition(id: string, from: DeliveryState[], patch: DeliveryPatch, at: string): Promise<boolean> {
    const result = await this.kysely
      .updateTable("deliveries")
      .set({ ...patch, updated_at: at })
      .where("id", "=", id)
      .where("state", "in", from)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async ofStory(storyId: string): Promise<Delivery[]> {
    const rows = await this.kysely
      .selectFrom("deliveries")
      .selectAll()
      .where("story_id", "=", storyId)
      .orderBy("created_at", "desc")
      .execute();
    return rows.map(toDelivery);
  }

  async page(filter: DeliveryFilter, page: number, size: number): Promise<{ content: Delivery[]; total: number }> {
    let query = this.kysely.selectFrom("deliveries");
    if (filter.state?.length) query = query.where("state", "in", filter.state);
    if (filter.channelId) query = query.where("channel_id", "=", filter.channelId);
    if (filter.storyId) query = query.where("story_id", "=", filter.storyId);
    if (filter.keyword)
      query = query.where(sql<boolean>`lower(story_title) like ${`%${filter.keyword.toLowerCase()}%`}`);
    const total = await query.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirst();
    const rows = await query
      .selectAll()
      .orderBy("created_at", "desc")
      .orderBy("id")
      .limit(size)
      .offset(page * size)
      .execute();
    return { content: rows.map(toDelivery), total: Number(total?.n ?? 0) };
  }

  /** How many deliveries to a channel are still to be sent (pending, in progress, retrying). */
  async openCount(channelId: string): Promise<number> {
    const row = await this.kysely
      .selectFrom("deliveries")
      .select((eb) => eb.fn.countAll<number>().as("count"))
      .where("channel_id", "=", channelId)
      .where("state", "in", ["pending", "in_progress", "retrying"])
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /** Deliveries counted by channel and state (the `/metrics` figure). */
  async countByChannelAndState(): Promise<{ channelId: string; state: DeliveryState; count: number }[]> {
    const rows = await this.kysely
      .selectFrom("deliveries")
      .select((eb) => ["channel_id", "state", eb.fn.countAll<number | string>().as("count")])
      .groupBy(["channel_id", "state"])
      .execute();
    return rows.map((row) => ({
      channelId: row.channel_id,
      state: row.state as DeliveryState,
      count: Number(row.count),
    }));
  }

  async stats(): Promise<ChannelDeliveryStats[]> {
    const counts = await this.kysely
      .selectFrom("deliveries")
      .select((eb) => [
        "channel_id",
        eb.fn.countAll<number>().as("total"),
        eb.fn.sum<number>(eb.case().when("state", "=", "succeeded").then(1).else(0).end()).as("succeeded"),
        eb.fn.sum<number>(eb.case().when("state", "=", "failed").then(1).else(0).end()).as("failed"),
        eb.fn
          .sum<number>(eb.case().when("state", "in", ["pending", "in_progress", "retrying"]).then(1).else(0).end())
          .as("open"),
      ])
      .groupBy("channel_id")
      .execute();
    const errors = await this.kysely
      .selectFrom("deliveries")
      .select(["channel_id", "last_error", "updated_at"])
      .where("last_error", "is not", null)
      .orderBy("updated_at", "desc")
      .limit(500)
      .execute();
    const newest = new Map<string, { state: string; updated_at: unknown }>();
    for (const row of counts) {
      // One indexed look-up per channel (deliveries_channel_idx): channels are few.
      const latest = await this.kysely
        .selectFrom("deliveries")
        .select(["state", "updated_at"])
        .where("channel_id", "=", row.channel_id)
        .orderBy("created_at", "desc")
        .limit(1)
        .executeTakeFirst();
      if (latest) newest.set(row.channel_id, latest);
    }
    return counts.map((row) => {
      const last = errors.find((error) => error.channel_id === row.channel_id);
      const latest = newest.get(row.channel_id);
      return {
        channelId: row.channel_id,
        total: Number(row.total),
        succeeded: Number(row.succeeded ?? 0),
        failed: Number(row.failed ?? 0),
        open: Number(row.open ?? 0),
        lastError: last?.last_error ?? null,
        lastErrorAt: iso(last?.updated_at),
        lastState: (latest?.state as DeliveryState | undefined) ?? null,
        lastAt: iso(latest?.updated_at),
      };
    });
  }

  /** Per channel, how many of these stories a publish delivery reached (succeeded) there. */
  async deliveredStoryCounts(storyIds: string[]): Promise<{ channelId: string; stories: number }[]> {
    if (storyIds.length === 0) return [];
    const rows = await this.kysely
      .selectFrom("deliveries")
      .select((eb) => ["channel_id", eb.fn.count<number>("story_id").distinct().as("stories")])
      .where("story_id", "in", storyIds)
      .where("action", "=", "publish")
      .where("state", "=", "succeeded")
      .groupBy("channel_id")
      .execute();
    return rows.map((row) => ({ channelId: row.channel_id, stories: Number(row.stories) }));
  }

  async embargoOf(storyId: string): Promise<string | null> {
    const row = await this.kysely
      .selectFrom("story_embargoes")
      .select("until")
      .where("story_id", "=", storyId)
      .executeTakeFirst();
    return iso(row?.until);
  }

  /** The embargoes of these stories, whatever their end (the caller compares with its clock). */
  async embargoesOf(storyIds: string[]): Promise<Map<string, string>> {
    if (storyIds.length === 0) return new Map();
    const rows = await this.kysely
      .selectFrom("story_embargoes")
      .select(["story_id", "until"])
      .where("story_id", "in", storyIds)
      .execute();
    return new Map(rows.map((row) => [row.story_id, iso(row.until)!]));
  }

  async setEmbargo(libraryId: string, storyId: string, until: string | null, by: string, at: string): Promise<void> {
    await this.kysely.deleteFrom("story_embargoes").where("story_id", "=", storyId).execute();
    if (until === null) return;
    await this.kysely
      .insertInto("story_embargoes")
      .values({ story_id: storyId, library_id: libraryId, until, set_by: by, set_at: at })
      .execute();
  }
}
