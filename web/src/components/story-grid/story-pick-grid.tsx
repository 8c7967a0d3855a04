import type { ReactNode } from "react";
import type { Story, StoryQuery } from "../../api/stories";
import { searchStories, storyKeys } from "../../api/stories";
import { PagedStoryGrid } from "./paged-story-grid";
import { usePagedStories } from "./use-paged-stories";

/**
 * The stories a search finds, as a grid to pick from (the editors' material picker, the embeddable material
 * selection): a click or opening a story toggles it; `empty` stands in for a result without stories.
 */
export function StoryPickGrid({
  scope,
  query,
  selected,
  onToggle,
  height,
  empty,
}: {
  /** The query-key scope of the picker's results (`storyKeys.list`). */
  scope: string;
  query: StoryQuery;
  selected: ReadonlySet<string>;
  onToggle: (story: Story) => void;
  height: string;
  empty: ReactNode;
}) {
  const queryKey = storyKeys.list(scope, query);
  const fetchPage = (page: number, size: number) => searchStories({ ...query, page, size });
  const stories = usePagedStories(queryKey, fetchPage);
  if (!stories.isLoading && stories.total === 0) return empty;
  return (
    <PagedStoryGrid
      queryKey={queryKey}
      fetchPage={fetchPage}
      total={stories.total}
      view="grid"
      selected={selected}
      onToggle={onToggle}
      onOpen={onToggle}
      height={height}
    />
  );
}
