import { describe, expect, it } from "vitest";
import { createI18n } from "../../locales/both-languages";
import { DEFAULT_PAGE_SIZE, rangeParams, toListQuery, toTableResult } from "./paging";

describe("toListQuery", () => {
  it("turns ProTable's 1-based page into the API's zero-based page, size 10 by default", () => {
    expect(DEFAULT_PAGE_SIZE).toBe(10);
    expect(toListQuery({})).toEqual({ page: 0, size: 10 });
    expect(toListQuery({ current: 3, pageSize: 20 })).toEqual({ page: 2, size: 20 });
  });

  it("passes a trimmed keyword and name, and drops empty ones", () => {
    expect(toListQuery({ current: 1, pageSize: 10, keyword: "  typhoon " })).toEqual({
      page: 0,
      size: 10,
      keyword: "typhoon",
    });
    expect(toListQuery({ keyword: "   ", name: "x" })).toEqual({ page: 0, size: 10, name: "x" });
  });
});

describe("toTableResult", () => {
  it("maps a page of the API to ProTable's result", () => {
    expect(toTableResult({ content: [{ id: 1 }], totalElements: 31, size: 10, number: 0 })).toEqual({
      data: [{ id: 1 }],
      total: 31,
      success: true,
    });
  });
});

describe("range text", () => {
  it("reads 第a-b条 共n条 in zh-CN", () => {
    const zh = createI18n("zh-CN");
    expect(zh.t("crud.range", rangeParams([11, 20], 31))).toBe("第11-20条 共31条");
  });

  it("has an English form", () => {
    const en = createI18n("en-US");
    expect(en.t("crud.range", rangeParams([1, 10], 31))).toBe("1-10 of 31 items");
  });

  it("keeps the spec's CRUD texts in zh-CN", () => {
    const zh = createI18n("zh-CN");
    expect(["crud.add", "crud.edit", "crud.deleteConfirm", "crud.deleted", "crud.saved"].map((k) => zh.t(k))).toEqual([
      "添加",
      "编辑",
      "确认删除？",
      "删除成功",
      "操作成功",
    ]);
  });
});
