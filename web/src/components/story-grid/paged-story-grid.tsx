import { StoryGrid, type StoryGridProps } from ".";
import { type FetchStoryPage, useStoryPages } from "./use-paged-stories";

export interface PagedStoryGridProps extends Omit<StoryGridProps, "storyAt" | "onRange"> {
  /** The result's query key (the pages are cached under it + their number). */
  queryKey: readonly unknown[];
  fetchPage: FetchStoryPage;
}

/**
 * The grid over a paged result: the pages in view are its own state, so scrolling renders nothing around it.
 * An estimated total settles under the same result (useStoryPages) without moving the grid back to the top.
 */
export function PagedStoryGrid({ queryKey, fetchPage, ...grid }: PagedStoryGridProps) {
  const { storyAt, onRange } = useStoryPages(queryKey, fetchPage, grid.total);
  return <StoryGrid {...grid} resultKey={JSON.stringify(queryKey)} storyAt={storyAt} onRange={onRange} />;
}
