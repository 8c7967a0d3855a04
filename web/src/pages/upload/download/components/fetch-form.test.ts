import { describe, expect, it } from "vitest";
import { urlsOf } from "./fetch-form";
import { formatSpeed } from "./fetch-list";

describe("download centre helpers", () => {
  it("takes one URL per line, without blanks or repeats", () => {
    expect(urlsOf(" https://a.example/1.jpg \r\n\n https://b.example/2.mp4\nhttps://a.example/1.jpg\n")).toEqual([
      "https://a.example/1.jpg",
      "https://b.example/2.mp4",
    ]);
  });

  it("shows speeds in B/s, KB/s and MB/s", () => {
    expect([formatSpeed(512), formatSpeed(230 * 1024), formatSpeed(1.5 * 1024 * 1024)]).toEqual([
      "512 B/s",
      "230 KB/s",
      "1.5 MB/s",
    ]);
  });
});
