import { keepPreviousData, useQueries, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import type { PageOf } from "../../api/paging";
import type { Facets, Story } from "../../api/stories";
import { pagesFor } from "./scroll-mapping";

export const GRID_PAGE_SIZE = 100;

/**
 * Items fetched beyond each end of the range, so the next page is usually
 * there before its rows come into view: the rows are then drawn once, with
 * their stories, rather than as placeholders replaced a moment later.
 */
export const PREFETCH_ITEMS = GRID_PAGE_SIZE / 2;

/** How long the range must stay put after a jump before its pages are fetched (ms). */
export const SETTLE_MS = 150;

/** A page as the story lists answer it. */
export type StoryPage = PageOf<Story> & { facets?: Facets; totalCapped?: boolean; totalEstimated?: boolean };

export type FetchStoryPage = (page: number, size: number) => Promise<StoryPage>;

/** What a page says of the result's length. */
export type PageTotal = Pick<StoryPage, "content" | "totalElements" | "totalEstimated">;

/**
 * The total a result settles on when its first page answered an estimate (a
 * list without full text above the server's count cap says `totalEstimated`):
 * the exact total a later page answers (the server counts a page beyond its
 * cap exactly); else the end of a short page, where the result ends; else,
 * past a full page that ends at or beyond the estimate, one more story than
 * that page holds (still an estimate), so the grid grows and the next page is
 * asked for. Undefined when the pages tell nothing new.
 */
export function settledTotal(
  first: PageTotal | undefined,
  pages: readonly { page: number; answer: PageTotal | undefined }[],
  pageSize: number,
): { totalElements: number; totalEstimated: boolean } | undefined {
  if (!first?.totalEstimated) return undefined;
  let total = first.totalElements;
  for (const { page, answer } of pages) {
    if (!answer) continue;
    if (!answer.totalEstimated) return { totalElements: answer.totalElements, totalEstimated: false };
    const end = page * pageSize + answer.content.length;
    if (answer.content.length < pageSize) return { totalElements: end, totalEstimated: false };
    if (end >= total) total = end + 1;
  }
  return total === first.totalElements ? undefined : { totalElements: total, totalEstimated: true };
}

/** The i18n key and count of a result's total line: the capped window, "about" an estimate, or the count. */
export function totalLine(result: { total: number; capped: boolean; estimated: boolean }): [string, { count: number }] {
  if (result.capped) return ["stories.totalCapped", { count: result.total }];
  if (result.estimated) return ["stories.totalEstimated", { count: aboutCount(result.total) }];
  return ["stories.total", { count: result.total }];
}

/**
 * An estimated total as the page says it, "about" so many: two significant
 * digits (998 734 → 1 000 000, 12 345 → 12 000), as precise as an estimate is.
 */
export function aboutCount(total: number): number {
  if (total < 100) return total;
  const unit = 10 ** (Math.floor(Math.log10(total)) - 1);
  return Math.round(total / unit) * unit;
}

/**
 * The first page of a long result: the total, the facets and its stories.
 * The other pages are the grid's (`useStoryPages`), so scrolling re-renders
 * the grid and not the page around it (the facets, the header).
 */
export function usePagedStories(key: readonly unknown[], fetchPage: FetchStoryPage) {
  const first = useQuery({
    queryKey: [...key, 0],
    queryFn: () => fetchPage(0, GRID_PAGE_SIZE),
    placeholderData: keepPreviousData,
    retry: false,
  });
  return {
    total: first.data?.totalElements ?? 0,
    /** More match than the search looks at (a full-text search over its newest matches). */
    capped: first.data?.totalCapped === true,
    /** The total is an estimate (a list without full text above the server's count cap) until a page settles it. */
    estimated: first.data?.totalEstimated === true,
    facets: first.isPlaceholderData ? undefined : first.data?.facets,
    isLoading: first.isLoading,
    isFetching: first.isFetching,
    isError: first.isError,
    error: first.error,
    refetch: first.refetch,
  };
}

/**
 * Whether the grid jumped (the scrollbar dragged, End pressed) rather than
 * scrolled: none of the pages of `next` is one of `current`'s or next to them.
 */
export function isJump(current: readonly [number, number], next: readonly [number, number], pageSize: number) {
  if (current[1] <= current[0] || next[1] <= next[0]) return false;
  const firstPage = (item: number) => Math.floor(item / pageSize);
  const lastPage = (range: readonly [number, number]) => firstPage(range[1] - 1);
  return firstPage(next[0]) > lastPage(current) + 1 || lastPage(next) < firstPage(current[0]) - 1;
}

/**
 * The range whose pages to fetch. A scroll step is taken at once; a jump is
 * taken once the range has stayed put for SETTLE_MS, so dragging the
 * scrollbar across 100 000 results fetches the pages where it stops, not
 * every page it passes over. A step from where a jump landed (the wheel
 * turning right after it) is a scroll step again.
 */
export function useSettledRange(pageSize: number, initial: [number, number]) {
  const [settled, setSettled] = useState<[number, number]>(initial);
  const current = useRef(settled);
  const requested = useRef(settled);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const request = useCallback(
    (from: number, to: number) => {
      const next: [number, number] = [from, to];
      const jumped = isJump(current.current, next, pageSize) && isJump(requested.current, next, pageSize);
      requested.current = next;
      clearTimeout(timer.current);
      const take = () => {
        if (current.current[0] === from && current.current[1] === to) return;
        current.current = next;
        setSettled(next);
      };
      if (jumped) timer.current = setTimeout(take, SETTLE_MS);
      else take();
    },
    [pageSize],
  );
  return [settled, request] as const;
}

/**
 * The stories of the items the grid shows, loaded page by page when their
 * rows come near the view (PREFETCH_ITEMS), cached by TanStack Query under `key` + page number
 * (the first page is `usePagedStories`'s query). A page already in the cache
 * shows at once, even while a jump settles.
 */
export function useStoryPages(key: readonly unknown[], fetchPage: FetchStoryPage, total: number) {
  const client = useQueryClient();
  const [range, onRange] = useSettledRange(GRID_PAGE_SIZE, [0, GRID_PAGE_SIZE]);
  const pages = pagesFor(
    Math.max(0, range[0] - PREFETCH_ITEMS),
    Math.min(range[1] + PREFETCH_ITEMS, total),
    GRID_PAGE_SIZE,
  ).filter((page) => page > 0);
  const others = useQueries({
    queries: pages.map((page) => ({
      queryKey: [...key, page],
      queryFn: () => fetchPage(page, GRID_PAGE_SIZE),
      staleTime: 30_000,
      retry: false,
    })),
  });
  // A page beyond an estimated total's first pages settles it: the first page's answer takes the settled total,
  // so the total line and the grid's length follow (settledTotal).
  const first = client.getQueryData<StoryPage>([...key, 0]);
  const settled = settledTotal(
    first,
    pages.map((page, index) => ({ page, answer: others[index]?.data })),
    GRID_PAGE_SIZE,
  );
  const settledKey = settled ? `${settled.totalElements}:${settled.totalEstimated}` : "";
  // biome-ignore lint/correctness/useExhaustiveDependencies: settledKey is the settled total's identity
  useEffect(() => {
    if (!settled) return;
    client.setQueryData<StoryPage>([...key, 0], (answer) =>
      answer ? { ...answer, totalElements: settled.totalElements, totalEstimated: settled.totalEstimated } : answer,
    );
  }, [settledKey]);
  const loaded = new Map<number, Story[] | undefined>();
  pages.forEach((page, index) => {
    const content = others[index]?.data?.content;
    if (content) loaded.set(page, content);
  });
  // A page outside the fetched range (a jump still settling) may be in the cache; looked up once per render.
  const pageOf = (page: number): Story[] | undefined => {
    if (!loaded.has(page)) loaded.set(page, client.getQueryData<PageOf<Story>>([...key, page])?.content);
    return loaded.get(page);
  };
  const storyAt = (index: number): Story | undefined =>
    pageOf(Math.floor(index / GRID_PAGE_SIZE))?.[index % GRID_PAGE_SIZE];
  return { storyAt, onRange };
}
