import { keepPreviousData, useQueries, useQuery } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import type { Facets, PageOf, Story } from "../../api/stories";
import { pagesFor } from "./scroll-mapping";

export const GRID_PAGE_SIZE = 100;

/**
 * A long result loaded page by page as the grid shows it: the first page
 * gives the total (and the facets), the others are fetched when their rows
 * come into view. Pages are cached by TanStack Query under `key`.
 */
export function usePagedStories(
  key: readonly unknown[],
  fetchPage: (page: number, size: number) => Promise<PageOf<Story> & { facets?: Facets; totalCapped?: boolean }>,
) {
  const [range, setRange] = useState<[number, number]>([0, GRID_PAGE_SIZE]);
  const first = useQuery({
    queryKey: [...key, 0],
    queryFn: () => fetchPage(0, GRID_PAGE_SIZE),
    placeholderData: keepPreviousData,
    retry: false,
  });
  const total = first.data?.totalElements ?? 0;
  const pages = pagesFor(range[0], Math.min(range[1], total), GRID_PAGE_SIZE).filter((page) => page > 0);
  const others = useQueries({
    queries: pages.map((page) => ({
      queryKey: [...key, page],
      queryFn: () => fetchPage(page, GRID_PAGE_SIZE),
      staleTime: 30_000,
      retry: false,
    })),
  });
  const loaded = new Map<number, Story[]>();
  if (first.data && !first.isPlaceholderData) loaded.set(0, first.data.content);
  pages.forEach((page, index) => {
    const content = others[index]?.data?.content;
    if (content) loaded.set(page, content);
  });
  const storyAt = (index: number): Story | undefined =>
    loaded.get(Math.floor(index / GRID_PAGE_SIZE))?.[index % GRID_PAGE_SIZE];
  const onRange = useCallback((from: number, to: number) => {
    setRange((current) => (current[0] === from && current[1] === to ? current : [from, to]));
  }, []);
  return {
    total,
    /** More match than the search looks at (a full-text search over its newest matches). */
    capped: first.data?.totalCapped === true,
    facets: first.isPlaceholderData ? undefined : first.data?.facets,
    isLoading: first.isLoading,
    isFetching: first.isFetching,
    isError: first.isError,
    error: first.error,
    storyAt,
    onRange,
    refetch: first.refetch,
  };
}
