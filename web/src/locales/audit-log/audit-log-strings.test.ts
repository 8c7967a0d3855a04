import { describe, expect, it } from "vitest";
import { i18n } from "../index";
import { auditLogStrings } from ".";

describe("the audit log page's strings", () => {
  it("zh-CN and en-US have the same keys, none empty", () => {
    expect(Object.keys(auditLogStrings["zh-CN"]).sort()).toEqual(Object.keys(auditLogStrings["en-US"]).sort());
    for (const strings of Object.values(auditLogStrings))
      for (const [key, value] of Object.entries(strings)) expect(value.trim(), key).not.toBe("");
  });

  it("are in i18n once the module is loaded", () => {
    expect(i18n.getFixedT("zh-CN")("auditLog.export")).toBe("导出 Excel");
  });
});
