import type { LibrariesService } from "../libraries/libraries.service.js";
import type { DailyCount, StoryStatistics } from "../stories/story-statistics.js";
import type { DataMonitorView } from "./monitor.schema.js";

const DAY_MS = 24 * 60 * 60 * 1000;
const TOP = 10;

export interface DataMonitorDependencies {
  statistics: StoryStatistics;
  libraries: Pick<LibrariesService, "find">;
  clock?: () => number;
}

/** The data monitor: the stories by type, status and library; what was made and committed per day; who and whence. */
export class DataMonitor {
  constructor(private readonly deps: DataMonitorDependencies) {}

  async data(days: number): Promise<DataMonitorView> {
    const now = (this.deps.clock ?? Date.now)();
    const firstDay = Math.floor(now / DAY_MS) - (days - 1);
    const since = new Date(firstDay * DAY_MS).toISOString();
    const { statistics } = this.deps;
    const [statuses, stories, uploads, commits, topAuthors, topSources] = await Promise.all([
      statistics.statuses(),
      statistics.storiesPerDay(since),
      statistics.actionsPerDay("create", since),
      statistics.actionsPerDay("commit", since),
      statistics.topAuthors(since, TOP),
      statistics.topSources(since, TOP),
    ]);
    const sum = <K extends string>(key: (row: (typeof statuses)[number]) => K) => {
      const sums = new Map<K, number>();
      for (const row of statuses) sums.set(key(row), (sums.get(key(row)) ?? 0) + row.stories);
      return [...sums].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
    };
    const byLibrary = await Promise.all(
      sum((row) => row.libraryId).map(async ([libraryId, count]) => ({
        libraryId,
        libraryName: (await this.deps.libraries.find(libraryId))?.name ?? null,
        stories: count,
      })),
    );
    const perDayOf = (counts: DailyCount[]) => new Map(counts.map((row) => [row.day, row.count]));
    const [storiesOn, uploadsOn, commitsOn] = [perDayOf(stories), perDayOf(uploads), perDayOf(commits)];
    const perDay = Array.from({ length: days }, (_, index) => {
      const day = new Date((firstDay + index) * DAY_MS).toISOString().slice(0, 10);
      return {
        day,
        stories: storiesOn.get(day) ?? 0,
        uploads: uploadsOn.get(day) ?? 0,
        commits: commitsOn.get(day) ?? 0,
      };
    });
    return {
      stories: statuses.reduce((total, row) => total + row.stories, 0),
      byType: sum((row) => row.type).map(([type, count]) => ({ type, stories: count })),
      byStatus: sum((row) => row.status).map(([status, count]) => ({ status, stories: count })),
      byLibrary,
      perDay,
      topAuthors,
      topSources,
    };
  }
}
