import { describe, expect, it } from "vitest";
import { cellWidth, gridColumns } from "./geometry";
import {
  BLOCK_ROWS,
  contentOffset,
  gridWindow,
  layerTopFor,
  pagesFor,
  sameWindow,
  scrollScale,
  scrollTopFor,
  spacerHeight,
  visibleRows,
} from "./scroll-mapping";

describe("scroll mapping", () => {
  const small = { contentHeight: 10_000, viewportHeight: 800 };
  const huge = { contentHeight: 100_000 * 220, viewportHeight: 800, maxHeight: 1_000_000 };

  it("leaves a short result unscaled", () => {
    expect(spacerHeight(small)).toBe(10_000);
    expect(scrollScale(small)).toBe(1);
    expect(contentOffset(1234, small)).toBe(1234);
    expect(scrollTopFor(1234, small)).toBe(1234);
  });

  it("caps the spacer and maps the ends of the scrollbar to the ends of the content", () => {
    expect(spacerHeight(huge)).toBe(1_000_000);
    expect(contentOffset(0, huge)).toBe(0);
    expect(contentOffset(1_000_000 - 800, huge)).toBeCloseTo(huge.contentHeight - 800, 3);
    // The middle of the scrollbar shows the middle of the content.
    const middle = contentOffset((1_000_000 - 800) / 2, huge);
    expect(middle).toBeCloseTo((huge.contentHeight - 800) / 2, 3);
  });

  it("round-trips an offset through the scrollbar", () => {
    const offset = 12_345_678;
    expect(contentOffset(scrollTopFor(offset, huge), huge)).toBeCloseTo(offset, 3);
  });

  it("clamps positions outside the range", () => {
    expect(contentOffset(-50, huge)).toBe(0);
    expect(contentOffset(10_000_000, huge)).toBe(huge.contentHeight - 800);
    expect(scrollTopFor(huge.contentHeight * 2, huge)).toBe(1_000_000 - 800);
  });

  it("renders the rows around the mapped position, with overscan", () => {
    const rows = visibleRows(0, 200, 1000, { viewportHeight: 700 }, 2);
    expect(rows).toEqual({ first: 0, last: 6, firstTop: 0 });
    const later = visibleRows(1050, 200, 1000, { viewportHeight: 700 }, 1);
    expect(later.first).toBe(4);
    expect(later.last).toBe(10);
    expect(later.firstTop).toBe(4 * 200 - 1050);
  });

  it("reaches the last row of 500 000 rows under a 1 000 000 px cap", () => {
    const rows = visibleRows(1_000_000 - 700, 200, 500_000, { viewportHeight: 700, maxHeight: 1_000_000 }, 0);
    expect(rows.last).toBe(500_000);
    expect(rows.first).toBe(500_000 - 4);
  });

  it("fits columns, two on a phone, and finds the pages of visible items", () => {
    // Cards of 180 px with 12 px around and between them: 5 × 180 + 6 × 12 = 972.
    expect(gridColumns(972)).toBe(5);
    expect(gridColumns(971)).toBe(4);
    expect(cellWidth(1000, 5)).toBe(180);
    // A 390 px phone (358 px for the grid): two cards of 161 px rather than one of 180.
    expect(gridColumns(358)).toBe(2);
    expect(cellWidth(358, 2)).toBe(161);
    expect(2 * cellWidth(358, 2) + 3 * 12).toBeLessThanOrEqual(358);
    // Too narrow for two of 150 px: one card, as wide as fits.
    expect(gridColumns(300)).toBe(1);
    expect(cellWidth(300, 1)).toBe(180);
    expect(gridColumns(120)).toBe(1);
    expect(cellWidth(120, 1)).toBe(96);
    expect(pagesFor(95, 130, 50)).toEqual([1, 2]);
    expect(pagesFor(0, 50, 50)).toEqual([0]);
    expect(pagesFor(10, 10, 50)).toEqual([]);
  });
});

describe("the grid's window and layer", () => {
  const viewport = { viewportHeight: 800 };

  it("keeps rows and layer in place below the cap while scrolling inside a block", () => {
    const a = gridWindow(10_000, 232, 20_000, viewport);
    const b = gridWindow(10_100, 232, 20_000, viewport);
    expect(a.base).toBe(0);
    expect(a.layerTop).toBe(0);
    expect(b.layerTop).toBe(0);
    // The rows are drawn at their true offsets, which the browser scrolls by itself.
    expect(a.first * 232).toBe(a.firstTop + 10_000);
  });

  it("draws rows from the start of their block, far down a long result", () => {
    const top = 5_000 * 232 + 40;
    const rows = gridWindow(top, 232, 20_000, viewport);
    expect(rows.base).toBe(BLOCK_ROWS);
    expect(rows.layerTop).toBe(BLOCK_ROWS * 232);
    // The first row is at (first − base) × rowHeight in the layer, that is firstTop below the scrollTop.
    expect(rows.layerTop + (rows.first - rows.base) * 232).toBe(top + rows.firstTop);
  });

  it("moves the layer with the mapping above the cap, so the last row ends at the bottom", () => {
    const geometry = { viewportHeight: 800, maxHeight: 1_000_000 };
    const rowCount = 200_000;
    const end = 1_000_000 - 800;
    const rows = gridWindow(end, 232, rowCount, geometry, 0);
    expect(rows.last).toBe(rowCount);
    const lastRowTop = rows.layerTop + (rowCount - 1 - rows.base) * 232;
    expect(lastRowTop + 232).toBeCloseTo(end + 800, 6);
    // Every row is drawn within a block's height of the layer's top.
    expect((rows.last - rows.base) * 232).toBeLessThan((BLOCK_ROWS + 10) * 232);
    expect(layerTopFor(end, rows.base, 232, rowCount, geometry)).toBe(rows.layerTop);
  });

  it("tells a window that moved from one that did not", () => {
    const a = gridWindow(0, 232, 20_000, viewport);
    expect(sameWindow(a, gridWindow(50, 232, 20_000, viewport))).toBe(true);
    expect(sameWindow(a, gridWindow(700, 232, 20_000, viewport))).toBe(false);
  });
});
