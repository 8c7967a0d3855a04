import { describe, expect, it } from "vitest";
import { expectBothLanguagesComplete } from "../../test-support";
import { i18n } from "../index";
import { channelStrings } from ".";

describe("the channels page's strings", () => {
  it("zh-CN and en-US have the same keys, none empty", () => {
    expectBothLanguagesComplete(channelStrings);
  });

  it("are in i18n once the module is loaded", () => {
    expect(i18n.getFixedT("en-US")("channels.test")).toBe("Test connection");
    expect(i18n.getFixedT("zh-CN")("channels.test")).toBe("测试连接");
  });
});
