import { describe, expect, it } from "vitest";
import { i18n } from "../index";
import { monitorStrings } from ".";

describe("the monitors' strings", () => {
  it("zh-CN and en-US have the same keys, none empty", () => {
    expect(Object.keys(monitorStrings["zh-CN"]).sort()).toEqual(Object.keys(monitorStrings["en-US"]).sort());
    for (const strings of Object.values(monitorStrings))
      for (const [key, value] of Object.entries(strings)) expect(value.trim(), key).not.toBe("");
  });

  it("are in i18n once the module is loaded", () => {
    expect(i18n.getFixedT("en-US")("monitor.jobs.retry")).toBe("Retry");
    expect(i18n.getFixedT("zh-CN")("monitor.jobs.retry")).toBe("重试");
  });
});
