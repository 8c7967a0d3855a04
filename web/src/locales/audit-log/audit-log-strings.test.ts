import { describe, expect, it } from "vitest";
import { expectBothLanguagesComplete } from "../../test-support";
import { i18n } from "../index";
import { auditLogStrings } from ".";

describe("the audit log page's strings", () => {
  it("zh-CN and en-US have the same keys, none empty", () => {
    expectBothLanguagesComplete(auditLogStrings);
  });

  it("are in i18n once the module is loaded", () => {
    expect(i18n.getFixedT("zh-CN")("auditLog.export")).toBe("导出 Excel");
  });
});
