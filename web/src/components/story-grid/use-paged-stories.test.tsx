// @vitest-environment jsdom
import { act } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { isJump, SETTLE_MS, useSettledRange } from "./use-paged-stories";

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
