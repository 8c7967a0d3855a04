// @vitest-environment jsdom
import { act } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import enStories from "../../locales/en-US/stories";
import zhStories from "../../locales/zh-CN/stories";
import {
  aboutCount,
  isJump,
  type PageTotal,
  SETTLE_MS,
  settledTotal,
  totalLine,
  useSettledRange,
} from "./use-paged-stories";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

describe("a jump of the grid", () => {
  it("is a range none of whose pages is or touches the current ones", () => {
    expect(isJump([0, 40], [20, 60], 100)).toBe(false);
    // The next page down or up is a scroll step.
    expect(isJump([150, 190], [260, 300], 100)).toBe(false);
    expect(isJump([350, 390], [260, 300], 100)).toBe(false);
    expect(isJump([0, 40], [250, 290], 100)).toBe(true);
    expect(isJump([99_000, 99_040], [0, 40], 100)).toBe(true);
    // An empty range (no size yet) is never a jump.
    expect(isJump([0, 0], [50_000, 50_040], 100)).toBe(false);
  });
});

let latest: { range: [number, number]; request: (from: number, to: number) => void };
let renders = 0;

function Probe() {
  const [range, request] = useSettledRange(100, [0, 100]);
  renders++;
  latest = { range, request };
  return null;
}

describe("the settled range", () => {
  let container: HTMLDivElement;
  let root: Root;

  beforeEach(() => {
    vi.useFakeTimers();
    renders = 0;
    container = document.createElement("div");
    root = createRoot(container);
    act(() => root.render(<Probe />));
  });
  afterEach(() => {
    act(() => root.unmount());
    vi.useRealTimers();
  });

  it("takes a scroll step at once", () => {
    act(() => latest.request(0, 40));
    expect(latest.range).toEqual([0, 40]);
    act(() => latest.request(90, 130));
    expect(latest.range).toEqual([90, 130]);
  });

  it("takes a jump only where it settles", () => {
    act(() => latest.request(0, 40));
    const before = renders;
    // Dragging the scrollbar: every position is a jump from the last settled range.
    for (const from of [10_000, 30_000, 50_000, 70_000]) {
      act(() => latest.request(from, from + 40));
      act(() => vi.advanceTimersByTime(SETTLE_MS / 3));
    }
    expect(latest.range).toEqual([0, 40]);
    expect(renders).toBe(before);
    act(() => vi.advanceTimersByTime(SETTLE_MS));
    expect(latest.range).toEqual([70_000, 70_040]);
    expect(renders).toBe(before + 1);
  });

  it("drops a pending jump when the grid scrolls back near the settled range", () => {
    act(() => latest.request(0, 40));
    act(() => latest.request(50_000, 50_040));
    act(() => latest.request(5, 45));
    act(() => vi.advanceTimersByTime(SETTLE_MS * 2));
    expect(latest.range).toEqual([5, 45]);
  });

  it("takes a step from where a jump landed at once: the wheel turning right after a jump", () => {
    act(() => latest.request(0, 40));
    act(() => latest.request(50_000, 50_040));
    expect(latest.range).toEqual([0, 40]);
    act(() => latest.request(49_990, 50_030));
    expect(latest.range).toEqual([49_990, 50_030]);
    // The pending jump does not come back later.
    act(() => vi.advanceTimersByTime(SETTLE_MS * 2));
    expect(latest.range).toEqual([49_990, 50_030]);
  });
});

describe("an estimated total", () => {
  const page = (length: number, totalElements: number, totalEstimated?: boolean): PageTotal => ({
    content: Array.from({ length }, () => ({}) as PageTotal["content"][number]),
    totalElements,
    ...(totalEstimated ? { totalEstimated } : {}),
  });
  const first = page(100, 1_000_000, true);

  it("is left alone when exact, or while the pages tell nothing new", () => {
    expect(settledTotal(page(100, 5000), [{ page: 3, answer: page(100, 4000) }], 100)).toBeUndefined();
    expect(settledTotal(first, [{ page: 1, answer: page(100, 1_000_000, true) }], 100)).toBeUndefined();
    expect(settledTotal(first, [{ page: 2, answer: undefined }], 100)).toBeUndefined();
  });

  it("settles on the exact total a page beyond the server's cap answers", () => {
    // The scrollbar dragged to the end of the estimate: the page there is counted exactly.
    expect(settledTotal(first, [{ page: 9_999, answer: page(0, 812_345) }], 100)).toEqual({
      totalElements: 812_345,
      totalEstimated: false,
    });
    expect(settledTotal(first, [{ page: 9_999, answer: page(100, 1_200_000) }], 100)).toEqual({
      totalElements: 1_200_000,
      totalEstimated: false,
    });
  });

  it("ends where a page comes back short, and grows past a full page at its end", () => {
    expect(settledTotal(page(100, 10_001, true), [{ page: 100, answer: page(42, 10_001, true) }], 100)).toEqual({
      totalElements: 10_042,
      totalEstimated: false,
    });
    expect(settledTotal(page(100, 10_001, true), [{ page: 100, answer: page(100, 10_001, true) }], 100)).toEqual({
      totalElements: 10_101,
      totalEstimated: true,
    });
  });

  it("is shown to two significant digits", () => {
    expect(aboutCount(998_734)).toBe(1_000_000);
    expect(aboutCount(12_345)).toBe(12_000);
    expect(aboutCount(10_001)).toBe(10_000);
    expect(aboutCount(87)).toBe(87);
    const [key, values] = totalLine({ total: 998_734, capped: false, estimated: true });
    const say = (text: string) => text.replace("{{count}}", String(values.count));
    expect(say(enStories[key as keyof typeof enStories])).toBe("about 1000000 stories");
    expect(say(zhStories[key as keyof typeof zhStories])).toBe("约 1000000 条稿件");
    expect(totalLine({ total: 4_321, capped: false, estimated: false })).toEqual(["stories.total", { count: 4_321 }]);
    expect(totalLine({ total: 2_000, capped: true, estimated: false })[0]).toBe("stories.totalCapped");
  });
});
