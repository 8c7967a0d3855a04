import { describe, expect, it } from "vitest";
import { FetchRefused } from "./address-policy.js";
import { parsePlaylist } from "./hls.js";

const base = new URL("https://cdn.example.com/news/2026/clip/master.m3u8?token=abc");

function refusal(text: string): FetchRefused {
  try {
    parsePlaylist(text, base);
  } catch (error) {
    if (error instanceof FetchRefused) return error;
    throw error;
  }
  throw new Error("not refused");
}

describe("HLS playlists, read by our own code", () => {
  it("reads a master playlist's variants with their bandwidth, URIs resolved against the playlist", () => {
    const playlist = parsePlaylist(
      [
        "#EXTM3U",
        '#EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS="avc1.4d401f,mp4a.40.2",RESOLUTION=640x360',
        "360p/index.m3u8",
        "#EXT-X-STREAM-INF:BANDWIDTH=2500000,RESOLUTION=1280x720",
        "/hd/index.m3u8",
        "#EXT-X-STREAM-INF:BANDWIDTH=120000",
        "https://other.example.net/low.m3u8",
      ].join("\r\n"),
      base,
    );
    expect(playlist).toEqual({
      kind: "master",
      variants: [
        { url: new URL("https://cdn.example.com/news/2026/clip/360p/index.m3u8"), bandwidth: 800000 },
        { url: new URL("https://cdn.example.com/hd/index.m3u8"), bandwidth: 2500000 },
        { url: new URL("https://other.example.net/low.m3u8"), bandwidth: 120000 },
      ],
    });
  });

  it("reads a media playlist's init segment and segments; METHOD=NONE is no encryption", () => {
    const playlist = parsePlaylist(
      [
        "\uFEFF#EXTM3U",
        "#EXT-X-VERSION:7",
        "#EXT-X-TARGETDURATION:2",
        "#EXT-X-KEY:METHOD=NONE",
        '#EXT-X-MAP:URI="init.mp4"',
        "#EXTINF:2.0,",
        "seg0.m4s",
        "# a comment",
        "#EXTINF:1.5,title",
        "../seg1.m4s?sig=1",
        "#EXT-X-ENDLIST",
      ].join("\n"),
      base,
    );
    expect(playlist).toEqual({
      kind: "media",
      init: new URL("https://cdn.example.com/news/2026/clip/init.mp4"),
      segments: [
        new URL("https://cdn.example.com/news/2026/clip/seg0.m4s"),
        new URL("https://cdn.example.com/news/2026/seg1.m4s?sig=1"),
      ],
      ended: true,
    });
  });

  it("says when a media playlist has no end (live)", () => {
    const playlist = parsePlaylist("#EXTM3U\n#EXTINF:2,\nseg0.ts\n", base);
    expect(playlist).toMatchObject({ kind: "media", ended: false });
  });

  it("refuses segments that are not http(s) URLs, with the scheme's reason", () => {
    for (const [uri, scheme] of [
      ["file:///etc/passwd", "file"],
      ["data:video/mp2t;base64,AAAA", "data"],
      ["crypto:https://cdn.example.com/seg.ts", "crypto"],
    ] as const) {
      const refused = refusal(`#EXTM3U\n#EXTINF:2,\n${uri}\n#EXT-X-ENDLIST`);
      expect(refused.msgCode, uri).toBe("fetch.scheme");
      expect(refused.msgParams).toEqual({ scheme });
    }
    expect(refusal('#EXTM3U\n#EXT-X-MAP:URI="file:///etc/shadow"\n#EXTINF:2,\nseg.ts').msgCode).toBe("fetch.scheme");
    expect(refusal("#EXTM3U\n#EXTINF:2,\nhttps://user:pw@cdn.example.com/seg.ts").msgCode).toBe("fetch.credentials");
  });

  it("refuses encryption, byte ranges, a changing init segment, mixed and non-playlists", () => {
    expect(refusal('#EXTM3U\n#EXT-X-KEY:METHOD=SAMPLE-AES,URI="k"\n#EXTINF:2,\nseg.ts').msgParams).toEqual({
      method: "SAMPLE-AES",
    });
    expect(refusal('#EXTM3U\n#EXT-X-SESSION-KEY:METHOD=AES-128,URI="k"').msgCode).toBe("fetch.hls.encrypted");
    expect(refusal("#EXTM3U\n#EXTINF:2,\n#EXT-X-BYTERANGE:1000@0\nall.ts").msgCode).toBe("fetch.hls.byteRange");
    expect(
      refusal('#EXTM3U\n#EXT-X-MAP:URI="a.mp4"\n#EXTINF:2,\ns1.m4s\n#EXT-X-MAP:URI="b.mp4"\n#EXTINF:2,\ns2.m4s')
        .msgCode,
    ).toBe("fetch.hls.mapChanges");
    expect(refusal("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nv.m3u8\n#EXTINF:2,\nseg.ts").msgCode).toBe(
      "fetch.hls.notPlaylist",
    );
    expect(refusal("<html><body>not a playlist</body></html>").msgCode).toBe("fetch.hls.notPlaylist");
  });
});
