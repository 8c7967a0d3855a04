import { describe, expect, it } from "vitest";
import { createI18n } from "../../../../locales/both-languages";
import { urlsOf } from "./fetch-form";
import { formatSpeed } from "./fetch-list";

describe("download centre helpers", () => {
  it("takes one URL per line, without blanks or repeats", () => {
    expect(urlsOf(" https://a.example/1.jpg \r\n\n https://b.example/2.mp4\nhttps://a.example/1.jpg\n")).toEqual([
      "https://a.example/1.jpg",
      "https://b.example/2.mp4",
    ]);
  });

  it("shows speeds in B/s, KB/s and MB/s, with the units of the UI language", () => {
    const speeds = (language: "zh-CN" | "en-US") => {
      const i18n = createI18n(language);
      const t = (key: string, params: Record<string, unknown>) => i18n.t(key, params);
      return [formatSpeed(512, t), formatSpeed(230 * 1024, t), formatSpeed(1.5 * 1024 * 1024, t)];
    };
    expect(speeds("en-US")).toEqual(["512 B/s", "230 KB/s", "1.5 MB/s"]);
    expect(speeds("zh-CN")).toEqual(["512 字节/秒", "230 KB/秒", "1.5 MB/秒"]);
  });
});
