import { describe, expect, it } from "vitest";
import { expectBothLanguagesComplete } from "../../test-support";
import { i18n } from "../index";
import { monitorStrings } from ".";

describe("the monitors' strings", () => {
  it("zh-CN and en-US have the same keys, none empty", () => {
    expectBothLanguagesComplete(monitorStrings);
  });

  it("are in i18n once the module is loaded", () => {
    expect(i18n.getFixedT("en-US")("monitor.jobs.retry")).toBe("Retry");
    expect(i18n.getFixedT("zh-CN")("monitor.jobs.retry")).toBe("重试");
  });
});
