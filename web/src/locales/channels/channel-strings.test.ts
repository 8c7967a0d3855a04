import { describe, expect, it } from "vitest";
import { i18n } from "../index";
import { channelStrings } from ".";

describe("the channels page's strings", () => {
  it("zh-CN and en-US have the same keys, none empty", () => {
    expect(Object.keys(channelStrings["zh-CN"]).sort()).toEqual(Object.keys(channelStrings["en-US"]).sort());
    for (const strings of Object.values(channelStrings))
      for (const [key, value] of Object.entries(strings)) expect(value.trim(), key).not.toBe("");
  });

  it("are in i18n once the module is loaded", () => {
    expect(i18n.getFixedT("en-US")("channels.test")).toBe("Test connection");
    expect(i18n.getFixedT("zh-CN")("channels.test")).toBe("测试连接");
  });
});
