import { useCallback, useMemo, useState } from "react";
import type { Story } from "../../api/stories";
import { storyKey } from "./cells";

/** Stories picked in a grid, by their key (library/story), in the order they were picked. */
export type Picked = ReadonlyMap<string, Story>;

/** The selection with `story` added, or taken out when it was in. */
export function toggled(picked: Picked, story: Story): Picked {
  const next = new Map(picked);
  const key = storyKey(story);
  if (next.has(key)) next.delete(key);
  else next.set(key, story);
  return next;
}

/** The selection with every story of a range added (`select`) or taken out. */
export function rangeToggled(picked: Picked, stories: readonly Story[], select: boolean): Picked {
  const next = new Map(picked);
  for (const story of stories) {
    if (select) next.set(storyKey(story), story);
    else next.delete(storyKey(story));
  }
  return next;
}

/** The stories a grid's reader picks (one by one, or a range at once), and their keys for the grid's marks. */
export function useStorySelection() {
  const [picked, setPicked] = useState<Picked>(new Map());
  const toggle = useCallback((story: Story) => setPicked((current) => toggled(current, story)), []);
  const toggleRange = useCallback(
    (stories: Story[], select: boolean) => setPicked((current) => rangeToggled(current, stories, select)),
    [],
  );
  const clear = useCallback(() => setPicked(new Map()), []);
  const keys = useMemo(() => new Set(picked.keys()), [picked]);
  return { picked, keys, toggle, toggleRange, clear };
}
