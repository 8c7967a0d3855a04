// @vitest-environment jsdom
import { act } from "react";
import { beforeAll, describe, expect, it } from "vitest";
import type { Story } from "../../api/stories";
import { renderInApp } from "../../test-render";
import { stubDesktopLayout, stubMatchMedia, until } from "../../test-support";
import { PagedStoryGrid } from "./paged-story-grid";
import { type FetchStoryPage, GRID_PAGE_SIZE, usePagedStories } from "./use-paged-stories";

beforeAll(() => {
  stubDesktopLayout();
  stubMatchMedia();
});

const TOTAL = 100_000;
const story = (index: number) =>
  ({
    libraryId: "lib",
    storyId: `s${index}`,
    type: "video",
    title: `Story ${index}`,
    status: index % 2 ? "draft" : "committed",
    thumbnailMediaUrl: null,
    coverMediaUrl: null,
    updatedAt: "2026-01-01T00:00:00Z",
    originalName: null,
  }) as unknown as Story;

/** As StoryBrowser uses them: the first page above, the grid's pages below. */
function Browser({ fetchPage }: { fetchPage: FetchStoryPage }) {
  const stories = usePagedStories(["test"], fetchPage);
  return (
    <PagedStoryGrid
      queryKey={["test"]}
      fetchPage={fetchPage}
      total={stories.total}
      view="grid"
      selected={new Set()}
      onToggle={() => {}}
      onOpen={() => {}}
    />
  );
}

let container: HTMLDivElement;

async function render(fetched: number[]) {
  const fetchPage = async (page: number, size: number) => {
    fetched.push(page);
    const content = Array.from({ length: Math.min(size, TOTAL - page * size) }, (_, i) => story(page * size + i));
    return { content, totalElements: TOTAL, size, number: page };
  };
  container = await renderInApp(<Browser fetchPage={fetchPage} />);
}
const gridOf = () => container.querySelector<HTMLDivElement>('[data-testid="story-grid"]')!;

const shown = (grid: HTMLElement) =>
  [...grid.querySelectorAll('[data-testid="story-card"]')].map((card) => card.getAttribute("data-story"));
const scrollTo = (grid: HTMLElement, top: number) =>
  act(() => {
    grid.scrollTop = top;
    grid.dispatchEvent(new Event("scroll"));
  });

describe("the paged grid", () => {
  it("loads the pages in view and draws their stories", async () => {
    const fetched: number[] = [];
    await render(fetched);
    await until(() => gridOf() !== null && shown(gridOf()).includes("lib/s0"));
    const grid = gridOf();
    expect(fetched).toContain(0);
    expect(grid.querySelector('[data-testid="story-placeholder"]')).toBeNull();
    // A draft shows its tag; the type is written out.
    expect(grid.querySelector('[data-story="lib/s1"]')?.textContent).toContain("Draft");
    expect(grid.querySelector('[data-story="lib/s0"]')?.textContent).toContain("Video");
  });

  it("fetches a jump's pages only once the scrollbar stops, and shows placeholders meanwhile", async () => {
    const fetched: number[] = [];
    await render(fetched);
    await until(() => gridOf() !== null && shown(gridOf()).includes("lib/s0"));
    const grid = gridOf();
    const before = fetched.length;
    // Dragging the thumb down the bar: three positions in quick succession.
    for (const row of [2_000, 9_000, 15_000]) scrollTo(grid, row * 232);
    expect(fetched.length).toBe(before);
    expect(grid.querySelectorAll('[data-testid="story-placeholder"]').length).toBeGreaterThan(0);
    const page = Math.floor((15_000 * 5) / GRID_PAGE_SIZE);
    await until(() => shown(grid).includes(`lib/s${15_000 * 5}`));
    expect(fetched.slice(before)).toContain(page);
    expect(fetched.slice(before)).not.toContain(Math.floor((9_000 * 5) / GRID_PAGE_SIZE));
    expect(fetched.slice(before)).not.toContain(Math.floor((2_000 * 5) / GRID_PAGE_SIZE));
    expect(shown(grid)).toContain(`lib/s${15_000 * 5}`);
  });

  it("shows a page already in the cache at once after a jump back", async () => {
    const fetched: number[] = [];
    await render(fetched);
    await until(() => gridOf() !== null && shown(gridOf()).includes("lib/s0"));
    const grid = gridOf();
    scrollTo(grid, 2_000 * 232);
    await until(() => shown(grid).includes(`lib/s${2_000 * 5}`));
    scrollTo(grid, 15_000 * 232);
    await until(() => shown(grid).includes(`lib/s${15_000 * 5}`));
    const fetchedBefore = fetched.length;
    scrollTo(grid, 2_000 * 232);
    // No wait: the page of row 2 000 comes from the cache, while the jump back is still settling.
    expect(shown(grid)).toContain(`lib/s${2_000 * 5}`);
    expect(fetched.length).toBe(fetchedBefore);
  });

  it("fetches the next page before its rows come into view", async () => {
    const fetched: number[] = [];
    await render(fetched);
    await until(() => gridOf() !== null && shown(gridOf()).includes("lib/s0"));
    const grid = gridOf();
    expect(fetched).toEqual([0]);
    // Rows 5 to 15 drawn (items 25 to 80): page 1 (items 100 to 199, rows 20 on) is fetched already.
    scrollTo(grid, 8 * 232);
    await until(() => fetched.includes(1));
    expect(shown(grid)).not.toContain("lib/s100");
  });
});
