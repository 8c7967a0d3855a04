// @vitest-environment jsdom
import { act } from "react";
import { createRoot, type Root } from "react-dom/client";
import { I18nextProvider } from "react-i18next";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Story } from "../../api/stories";
import { createI18n } from "../../locales";
import { StoryGrid } from ".";
import { MAX_SCROLL_HEIGHT } from "./scroll-mapping";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

beforeAll(() => {
  // jsdom lays nothing out: give every element the size of a desktop viewport.
  Object.defineProperty(HTMLElement.prototype, "clientWidth", { configurable: true, get: () => 1000 });
  Object.defineProperty(HTMLElement.prototype, "clientHeight", { configurable: true, get: () => 800 });
  globalThis.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
  window.requestAnimationFrame = (callback) => {
    callback(0);
    return 0;
  };
  Object.defineProperty(window, "matchMedia", {
    writable: true,
    value: (query: string) => ({
      matches: false,
      media: query,
      addListener() {},
      removeListener() {},
      addEventListener() {},
      removeEventListener() {},
    }),
  });
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

function render(total: number, ranges: [number, number][]) {
  container = document.createElement("div");
  document.body.append(container);
  root = createRoot(container);
  act(() =>
    root.render(
      <I18nextProvider i18n={createI18n("en-US")}>
        <StoryGrid
          total={total}
          storyAt={story}
          onRange={(from, to) => ranges.push([from, to])}
          view="grid"
          selected={new Set()}
          onToggle={() => {}}
          onOpen={() => {}}
        />
      </I18nextProvider>,
    ),
  );
  return container.querySelector<HTMLDivElement>('[data-testid="story-grid"]')!;
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
});
