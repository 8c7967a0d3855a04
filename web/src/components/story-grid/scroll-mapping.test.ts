import { describe, expect, it } from "vitest";
import {
  columnsFor,
  contentOffset,
  pagesFor,
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

  it("fits columns and finds the pages of visible items", () => {
    expect(columnsFor(1000, 180, 12)).toBe(5);
    expect(columnsFor(50, 180, 12)).toBe(1);
    expect(pagesFor(95, 130, 50)).toEqual([1, 2]);
    expect(pagesFor(0, 50, 50)).toEqual([0]);
    expect(pagesFor(10, 10, 50)).toEqual([]);
  });
});
