import { describe, expect, it, vi } from "vitest";
import { pagerWhenMany } from "./pager";

describe("pagerWhenMany", () => {
  it("shows no pager while everything fits on one page", () => {
    expect(pagerWhenMany(undefined, 0, 10, vi.fn())).toBe(false);
    expect(pagerWhenMany(10, 0, 10, vi.fn())).toBe(false);
  });

  it("pages from 1 on screen and from 0 to the server", () => {
    const setPage = vi.fn();
    const pager = pagerWhenMany(11, 1, 10, setPage);
    expect(pager).toMatchObject({ current: 2, pageSize: 10, total: 11 });
    expect(pager).not.toHaveProperty("size");
    if (pager) pager.onChange(1);
    expect(setPage).toHaveBeenCalledWith(0);
    expect(pagerWhenMany(11, 0, 10, setPage, { small: true })).toMatchObject({ size: "small" });
  });
});
