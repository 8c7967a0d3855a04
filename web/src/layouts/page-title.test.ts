import { describe, expect, it } from "vitest";
import { createI18n } from "../locales/both-languages";
import { pageTitle } from "./page-title";

describe("pageTitle", () => {
  it("joins the route title and the platform title", () => {
    expect(pageTitle("Upload images", "dams")).toBe("Upload images - dams");
  });

  it("falls back to the platform title when the route has none", () => {
    expect(pageTitle(undefined, "dams")).toBe("dams");
    expect(pageTitle("  ", "dams")).toBe("dams");
  });

  it("uses app.title per language", () => {
    const en = createI18n("en-US");
    const zh = createI18n("zh-CN");
    expect(pageTitle(en.t("menu.upload.image"), en.t("app.title"))).toBe("Upload images - dams");
    expect(pageTitle(zh.t("menu.upload.image"), zh.t("app.title"))).toBe("图片上传 - 媒资管理系统");
  });
});
