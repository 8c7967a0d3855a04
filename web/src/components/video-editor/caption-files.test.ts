import { describe, expect, it } from "vitest";
import { parseCaptionFile } from "./caption-files";

describe("parseCaptionFile", () => {
  it("reads SubRip: numbers dropped, commas as decimal marks, hours, lines kept", () => {
    const srt =
      "1\r\n00:00:01,200 --> 00:00:03,400\r\n我们今天宣布\r\n第二行\r\n\r\n2\r\n01:00:05,000 --> 01:00:06,5\r\n<i>It's 100%</i>\r\n";
    expect(parseCaptionFile(srt)).toEqual([
      { start: 1.2, end: 3.4, text: "我们今天宣布\n第二行" },
      { start: 3605, end: 3606.5, text: "It's 100%" },
    ]);
  });

  it("reads WebVTT: header, NOTE and STYLE skipped, identifiers, settings and voice tags dropped, minutes-only times", () => {
    const vtt = [
      "\uFEFFWEBVTT - 发布会",
      "",
      "NOTE a remark --> not a cue",
      "",
      "STYLE",
      "::cue { color: yellow }",
      "",
      "intro",
      "00:02.500 --> 00:04.000 align:start position:10%",
      "<v 李明>大家好",
      "",
      "00:00.000 --> 00:01.000",
      "first",
    ].join("\n");
    expect(parseCaptionFile(vtt)).toEqual([
      { start: 0, end: 1, text: "first" },
      { start: 2.5, end: 4, text: "大家好" },
    ]);
  });

  it("skips cues without text or ending before they start, and files without cues", () => {
    expect(
      parseCaptionFile("1\n00:00:03,000 --> 00:00:02,000\nbackwards\n\n2\n00:00:04,000 --> 00:00:05,000\n"),
    ).toEqual([]);
    expect(parseCaptionFile("not a caption file")).toEqual([]);
  });
});
