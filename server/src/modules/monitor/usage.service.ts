import type { LibrariesService } from "../libraries/libraries.service.js";
import type { SharesService } from "../shares/shares.service.js";
import type { StoryStatistics, StorySummary, UsageDimension } from "../stories/story-statistics.js";
import type { SearchMissQuery, UnusedQuery, UsageFilter, UsageRowView } from "./usage.schema.js";
import type { SearchMissRow, UsageCountersRepository } from "./usage-counter.js";

export interface UsageDependencies {
  statistics: StoryStatistics;
  shares: Pick<SharesService, "sharedStories">;
  libraries: Pick<LibrariesService, "find">;
  /** Story views and searches that found nothing (the UsageCounter's sums). */
  counters: UsageCountersRepository;
  /** A user's display name by id. */
  userName: (userId: string) => Promise<string | null>;
}

/** Stories whose views are read at most for the author and source rows (the most viewed first). */
const MAX_VIEWED_STORIES = 10_000;

/**
 * Usage statistics (/backend/setting/usedStatistic): downloads and publishes from the stories' action trail,
 * shares from the shares module, views from the usage counters, grouped by story, user, library, author or source over a period.
 */
export class UsageStatistics {
  constructor(private readonly deps: UsageDependencies) {}

  async usage(filter: UsageFilter): Promise<UsageRowView[]> {
    const period = { from: new Date(filter.from).toISOString(), to: new Date(filter.to).toISOString() };
    const byStory = filter.by === "author" || filter.by === "source";
    const viewsBy = filter.by === "author" || filter.by === "source" ? "story" : filter.by;
    const [actions, shared, viewed] = await Promise.all([
      this.deps.statistics.usage(period, filter.by, filter.limit),
      this.deps.shares.sharedStories(period.from, period.to),
      this.deps.counters.views(period, viewsBy, byStory ? MAX_VIEWED_STORIES : filter.limit),
    ]);
    const rows = new Map<string, UsageRowView>();
    const row = (key: string, label: string | null) => {
      const found = rows.get(key) ?? { key, label, views: 0, downloads: 0, publishes: 0, shares: 0 };
      rows.set(key, found);
      return found;
    };
    for (const counted of actions) {
      const found = row(counted.key, counted.label);
      found.downloads = counted.download;
      found.publishes = counted.publish;
    }
    const summaries = await this.#summaries(filter.by, [
      ...shared.map((item) => item.storyId),
      ...viewed.map((item) => item.key),
    ]);
    for (const item of shared) {
      for (const key of sharedKeys(filter.by, item, summaries.get(item.storyId))) {
        row(key, filter.by === "story" ? (summaries.get(item.storyId)?.title ?? null) : null).shares += item.shares;
      }
    }
    for (const item of viewed) {
      const keys = byStory
        ? sharedKeys(filter.by, { storyId: item.key, libraryId: "", createdBy: null }, summaries.get(item.key))
        : [item.key];
      for (const key of keys) {
        const label = filter.by === "story" ? (summaries.get(item.key)?.title ?? null) : null;
        row(key, label).views += item.views;
      }
    }
    const used = (found: UsageRowView) => found.views + found.downloads + found.publishes + found.shares;
    const sorted = [...rows.values()]
      .sort((a, b) => used(b) - used(a) || a.key.localeCompare(b.key))
      .slice(0, filter.limit);
    return Promise.all(sorted.map(async (found) => ({ ...found, label: await this.#label(filter.by, found) })));
  }

  unused(query: UnusedQuery): Promise<StorySummary[]> {
    const period = { from: new Date(query.from).toISOString(), to: new Date(query.to).toISOString() };
    return this.deps.statistics.unused(period, query.limit);
  }

  /** Searches that found nothing in the period, most frequent first. */
  searchMisses(query: SearchMissQuery): Promise<SearchMissRow[]> {
    const period = { from: new Date(query.from).toISOString(), to: new Date(query.to).toISOString() };
    return this.deps.counters.misses(period, query.limit);
  }

  async #summaries(by: UsageDimension, storyIds: string[]): Promise<Map<string, StorySummary>> {
    if (by === "user" || by === "library" || storyIds.length === 0) return new Map();
    const found = await this.deps.statistics.summaries([...new Set(storyIds)]);
    return new Map(found.map((summary) => [summary.id, summary]));
  }

  async #label(by: UsageDimension, row: UsageRowView): Promise<string | null> {
    if (row.label !== null) return row.label;
    if (by === "user") return this.deps.userName(row.key);
    if (by === "library") return (await this.deps.libraries.find(row.key))?.name ?? null;
    return null;
  }
}

function sharedKeys(
  by: UsageDimension,
  item: { storyId: string; libraryId: string; createdBy: string | null },
  summary: StorySummary | undefined,
): string[] {
  switch (by) {
    case "story":
      return summary ? [item.storyId] : [];
    case "user":
      return item.createdBy ? [item.createdBy] : [];
    case "library":
      return [item.libraryId];
    case "author":
      return summary ? [...new Set(summary.authors)] : [];
    case "source":
      return summary?.source ? [summary.source] : [];
  }
}
