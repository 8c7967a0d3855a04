// @vitest-environment jsdom
import { act } from "react";
import { createRoot, type Root } from "react-dom/client";
import { I18nextProvider } from "react-i18next";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Story } from "../../api/stories";
import { createI18n } from "../../locales/both-languages";
import { stubDesktopLayout, stubMatchMedia } from "../../test-support";
import { POINTER_PAUSE_MS, StoryGrid } from ".";
import { gridWindow, layerTopFor, MAX_SCROLL_HEIGHT, sameWindow } from "./scroll-mapping";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

beforeAll(() => {
  stubDesktopLayout();
  window.requestAnimationFrame = (callback) => {
    callback(0);
    return 0;
  };
  stubMatchMedia();
});

const story = (index: number) =>
  ({
    libraryId: "lib",
    storyId: `s${index}`,
    type: "photo",
    title: `Story ${index}`,
    status: "committed",
    thumbnailUrl: null,
    coverUrl: null,
    thumbnailMediaUrl: null,
    coverMediaUrl: null,
    updatedAt: "2026-01-01T00:00:00Z",
    originalName: null,
  }) as unknown as Story;

let container: HTMLDivElement;
let root: Root;
afterEach(() => {
  act(() => root.unmount());
  container.remove();
});

interface Selection {
  selected?: Set<string>;
  onToggle?: (story: Story) => void;
  onToggleRange?: (stories: Story[], select: boolean) => void;
  resultKey?: string;
}

/** Renders the grid into the current root (again: a new total or result for the same grid). */
function draw(total: number, ranges: [number, number][], selection: Selection = {}) {
  act(() =>
    root.render(
      <I18nextProvider i18n={createI18n("en-US")}>
        <StoryGrid
          total={total}
          resultKey={selection.resultKey}
          storyAt={story}
          onRange={(from, to) => ranges.push([from, to])}
          view="grid"
          selected={selection.selected ?? new Set()}
          onToggle={selection.onToggle ?? (() => {})}
          onToggleRange={selection.onToggleRange}
          onOpen={() => {}}
        />
      </I18nextProvider>,
    ),
  );
  return container.querySelector<HTMLDivElement>('[data-testid="story-grid"]')!;
}

function render(total: number, ranges: [number, number][], selection: Selection = {}) {
  container = document.createElement("div");
  document.body.append(container);
  root = createRoot(container);
  return draw(total, ranges, selection);
}

describe("the story grid", () => {
  it("gives 100 000 results their true height", () => {
    const grid = render(100_000, []);
    // 5 columns: 20 000 rows of 232 px.
    expect((grid.firstElementChild as HTMLElement).style.height).toBe(`${20_000 * 232}px`);
  });

  it("renders only the rows in view of 1 000 000 results, under a capped spacer", () => {
    const ranges: [number, number][] = [];
    const grid = render(1_000_000, ranges);
    const cards = grid.querySelectorAll('[data-testid="story-card"]');
    // 1000 px fit 5 columns of 180 px; 800 px show 4 rows of 232 px, plus overscan.
    expect(cards.length).toBeGreaterThan(0);
    expect(cards.length).toBeLessThanOrEqual(5 * 8);
    expect((grid.firstElementChild as HTMLElement).style.height).toBe(`${MAX_SCROLL_HEIGHT}px`);
    expect(ranges.at(-1)?.[0]).toBe(0);
  });

  it("shows the last result when the scrollbar is at its end", () => {
    const ranges: [number, number][] = [];
    const grid = render(1_000_000, ranges);
    act(() => {
      grid.scrollTop = MAX_SCROLL_HEIGHT - 800;
      grid.dispatchEvent(new Event("scroll"));
    });
    const shown = [...grid.querySelectorAll('[data-testid="story-card"]')].map((card) =>
      card.getAttribute("data-story"),
    );
    expect(shown).toContain("lib/s999999");
    expect(shown).not.toContain("lib/s0");
    expect(ranges.at(-1)?.[1]).toBe(1_000_000);
  });

  it("keeps its place when an estimated total settles under the same result, and starts a new result at the top", () => {
    const grid = render(1_000_000, [], { resultKey: "library" });
    act(() => {
      grid.scrollTop = MAX_SCROLL_HEIGHT - 800;
      grid.dispatchEvent(new Event("scroll"));
    });
    // The page at the end answered the exact total: the grid stays at the end, which is now the last story.
    draw(812_345, [], { resultKey: "library" });
    const shown = () =>
      [...grid.querySelectorAll('[data-testid="story-card"]')].map((card) => card.getAttribute("data-story"));
    expect(grid.scrollTop).toBeGreaterThan(0);
    expect(shown()).toContain("lib/s812344");
    draw(812_345, [], { resultKey: "another query" });
    expect(grid.scrollTop).toBe(0);
    expect(shown()).toContain("lib/s0");
  });

  const layerOf = (grid: HTMLElement) => grid.firstElementChild?.firstElementChild as HTMLElement;
  const scroll = (grid: HTMLElement, top: number) =>
    act(() => {
      grid.scrollTop = top;
      grid.dispatchEvent(new Event("scroll"));
    });

  it("leaves rows and layer in place below the cap while the window does not change", () => {
    const grid = render(100_000, []);
    scroll(grid, 4_900);
    const layer = layerOf(grid);
    const rowTops = [...layer.children].map((row) => (row as HTMLElement).style.top);
    const transform = layer.style.transform;
    scroll(grid, 4_950);
    expect([...layer.children].map((row) => (row as HTMLElement).style.top)).toEqual(rowTops);
    expect(layer.style.transform).toBe(transform);
    expect(transform).toBe("translateY(0px)");
  });

  it("moves the layer with the scroll mapping above the cap, between window changes too", () => {
    const grid = render(1_000_000, []);
    const layer = layerOf(grid);
    scroll(grid, 3_000_010);
    const rows = [...layer.children];
    const before = layer.style.transform;
    scroll(grid, 3_000_030);
    // Same rows (the same elements), the layer moved by the mapping: 20 px of scrollbar are ≈ 62 px of rows.
    const geometry = { viewportHeight: 800 };
    const shown = gridWindow(3_000_030, 232, 200_000, geometry, 3);
    expect(sameWindow(shown, gridWindow(3_000_010, 232, 200_000, geometry, 3))).toBe(true);
    expect([...layer.children]).toEqual(rows);
    expect(layer.style.transform).not.toBe(before);
    expect(layer.style.transform).toBe(`translateY(${layerTopFor(3_000_030, shown.base, 232, 200_000, geometry)}px)`);
    // The first row drawn sits (first − base) rows down the layer, within a block.
    expect((layer.firstElementChild as HTMLElement).style.top).toBe(`${(shown.first - shown.base) * 232}px`);
  });

  it("takes no pointer events while scrolling, and takes them again once it pauses", async () => {
    const grid = render(100_000, []);
    const layer = layerOf(grid);
    scroll(grid, 1_000);
    expect(layer.style.pointerEvents).toBe("none");
    scroll(grid, 1_100);
    expect(layer.style.pointerEvents).toBe("none");
    await act(() => new Promise((resolve) => setTimeout(resolve, POINTER_PAUSE_MS + 30)));
    expect(layer.style.pointerEvents).toBe("");
  });

  it("selects the range from the checkbox clicked last to a Shift-clicked one, in either direction", () => {
    const toggled: string[] = [];
    const ranges: { ids: string[]; select: boolean }[] = [];
    const grid = render(100, [], {
      selected: new Set(["lib/s3"]),
      onToggle: (one) => toggled.push(one.storyId),
      onToggleRange: (stories, select) => ranges.push({ ids: stories.map((one) => one.storyId), select }),
    });
    const box = (index: number) =>
      grid.querySelector<HTMLInputElement>(`[data-story="lib/s${index}"] input[type=checkbox]`)!;
    const click = (index: number, shiftKey = false) =>
      act(() => box(index).dispatchEvent(new MouseEvent("click", { bubbles: true, shiftKey })));

    click(2);
    click(6, true);
    click(1, true);
    // Shift-clicking a selected story unselects the range.
    click(3, true);
    click(9);
    expect(toggled).toEqual(["s2", "s9"]);
    expect(ranges).toEqual([
      { ids: ["s2", "s3", "s4", "s5", "s6"], select: true },
      { ids: ["s1", "s2", "s3", "s4", "s5", "s6"], select: true },
      { ids: ["s1", "s2", "s3"], select: false },
    ]);
  });

  it("toggles one story on a Shift-click when nothing was clicked before", () => {
    const toggled: string[] = [];
    const grid = render(100, [], {
      onToggle: (one) => toggled.push(one.storyId),
      onToggleRange: () => {
        throw new Error("no range without an anchor");
      },
    });
    act(() =>
      grid
        .querySelector<HTMLInputElement>('[data-story="lib/s4"] input[type=checkbox]')!
        .dispatchEvent(new MouseEvent("click", { bubbles: true, shiftKey: true })),
    );
    expect(toggled).toEqual(["s4"]);
  });
});
