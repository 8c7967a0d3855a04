import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pixelFlood } from "../test/pixel-flood.js";
import { audioWaveform } from "./audio.js";
import { extractImageMetadata } from "./image-metadata.js";
import { renderImageDerivatives, renderThumbnail } from "./images.js";
import { MediaError } from "./media-error.js";
import { perceptualHash } from "./perceptual-hash.js";
import { probeMedia } from "./probe.js";
import { renderPoster, renderThumbnailStrip, transcodeVideoProxy } from "./video.js";

/**
 * Uploads are untrusted. Each hostile file must end in a MediaError with a
 * reason, write nothing that holds a local file's content, and leave the
 * process up. The secret is a file of our own, so the test does not depend on
 * what /etc/passwd holds on the machine.
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dams-hostile-"));
const file = (name: string) => path.join(dir, name);
const secret = "dams-secret-6f1c2e: root:x:0:0:root:/root:/bin/bash";
const outDir = file("out");
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function riffChunk(fourcc: string, data: Buffer): Buffer {
  const size = Buffer.alloc(4);
  size.writeUInt32LE(data.length);
  return Buffer.concat([
    Buffer.from(fourcc, "latin1"),
    size,
    data,
    data.length % 2 ? Buffer.alloc(1) : Buffer.alloc(0),
  ]);
}

/** An AVI whose only stream is a GAB2 subtitle holding an HLS playlist (the 2017 ffmpeg local-file-read shape). */
function aviCarryingPlaylist(playlist: string): Buffer {
  const u32 = (value: number) => {
    const buffer = Buffer.alloc(4);
    buffer.writeUInt32LE(value >>> 0);
    return buffer;
  };
  const u16 = (value: number) => {
    const buffer = Buffer.alloc(2);
    buffer.writeUInt16LE(value);
    return buffer;
  };
  const name = Buffer.from("x\0\0", "utf16le").subarray(0, 4);
  const body = Buffer.from(playlist, "latin1");
  const gab2 = Buffer.concat([
    Buffer.from("GAB2\0", "latin1"),
    u16(2),
    u32(name.length),
    name,
    u16(4),
    u32(body.length),
    body,
  ]);
  const avih = Buffer.concat([
    u32(40_000),
    u32(0),
    u32(0),
    u32(0x10),
    u32(1),
    u32(0),
    u32(1),
    u32(0),
    u32(224),
    u32(160),
    Buffer.alloc(16),
  ]);
  const strh = Buffer.concat([
    Buffer.from("txts\0\0\0\0", "latin1"),
    u32(0),
    u16(0),
    u16(0),
    u32(0),
    u32(1),
    u32(1),
    u32(0),
    u32(1),
    u32(gab2.length),
    u32(0xffffffff),
    u32(0),
    Buffer.alloc(8),
  ]);
  const list = (kind: string, data: Buffer) => riffChunk("LIST", Buffer.concat([Buffer.from(kind, "latin1"), data]));
  const hdrl = list(
    "hdrl",
    Buffer.concat([
      riffChunk("avih", avih),
      list("strl", Buffer.concat([riffChunk("strh", strh), riffChunk("strf", Buffer.alloc(0))])),
    ]),
  );
  const movi = list("movi", riffChunk("00tx", gab2));
  const idx1 = riffChunk("idx1", Buffer.concat([Buffer.from("00tx", "latin1"), u32(0x10), u32(4), u32(gab2.length)]));
  return riffChunk("RIFF", Buffer.concat([Buffer.from("AVI ", "latin1"), hdrl, movi, idx1]));
}

const playlist = (target: string) =>
  `#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:10\n#EXT-X-MEDIA-SEQUENCE:0\n#EXTINF:10.0,\n${target}\n#EXT-X-ENDLIST\n`;

beforeAll(() => {
  fs.mkdirSync(outDir);
  fs.writeFileSync(file("secret.txt"), `${secret}\n`);
  fs.writeFileSync(file("flood.png"), pixelFlood());
  const jpeg = fs.readFileSync(
    path.resolve(import.meta.dirname, "../../../../shared/corpus/exif-samples/jpg/Canon_40D.jpg"),
  );
  fs.writeFileSync(file("truncated.jpg"), jpeg.subarray(0, Math.floor(jpeg.length * 0.6)));
  fs.writeFileSync(
    file("script.svg"),
    `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="100" height="100"><script>alert(document.cookie)</script><image xlink:href="file://${file("secret.txt")}" width="100" height="100"/></svg>`,
  );
  fs.writeFileSync(file("playlist.m3u8"), playlist(`file://${file("secret.txt")}`));
  fs.writeFileSync(file("playlist-named.mp4"), playlist(file("secret.txt")));
  fs.writeFileSync(file("playlist.avi"), playlist(`file://${file("secret.txt")}`));
  fs.writeFileSync(file("gab2.avi"), aviCarryingPlaylist(playlist(`file://${file("secret.txt")}`)));
  fs.writeFileSync(file("concat.mp4"), `ffconcat version 1.0\nfile '${file("secret.txt")}'\n`);
});

async function refusal(work: Promise<unknown>): Promise<MediaError> {
  const error = await work.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(MediaError);
  const mediaError = error as MediaError;
  expect(mediaError.reason.length).toBeGreaterThan(10);
  expect(mediaError.reason).not.toContain("root:x");
  return mediaError;
}

function outputsHoldNoSecret(): void {
  for (const entry of fs.readdirSync(outDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    expect(fs.readFileSync(path.join(entry.parentPath, entry.name)).includes("dams-secret")).toBe(false);
  }
}

describe("hostile images", () => {
  it("refuses a pixel flood before decoding it", async () => {
    expect((await refusal(renderImageDerivatives(file("flood.png"), outDir))).kind).toBe("too_large");
    expect((await refusal(perceptualHash(file("flood.png")))).kind).toBe("too_large");
    expect((await refusal(renderThumbnail(file("flood.png"), path.join(outDir, "t.jpg")))).kind).toBe("too_large");
  });

  it("honours a lower pixel limit given by configuration", async () => {
    const corpusJpeg = path.resolve(import.meta.dirname, "../../../../shared/corpus/exif-samples/jpg/Canon_40D.jpg");
    expect((await refusal(renderImageDerivatives(corpusJpeg, outDir, { maxPixels: 1000 }))).kind).toBe("too_large");
  });

  it("reports a truncated JPEG as damaged instead of rendering grey", async () => {
    expect((await refusal(renderImageDerivatives(file("truncated.jpg"), outDir))).kind).toBe("corrupt");
  });

  it("refuses an SVG with a script and a link to a local file", async () => {
    const error = await refusal(renderImageDerivatives(file("script.svg"), outDir));
    expect(error.kind).toBe("unsupported_format");
    expect((await refusal(perceptualHash(file("script.svg")))).kind).toBe("unsupported_format");
  });

  it("has written no rendition for any of them", () => {
    expect(fs.readdirSync(outDir)).toEqual([]);
  });
});

describe("hostile video and audio", () => {
  const hostile = ["playlist.m3u8", "playlist-named.mp4", "playlist.avi", "gab2.avi", "concat.mp4", "secret.txt"];

  it("refuses playlists and concat scripts by the demuxer allow-list, and files without media at the probe", async () => {
    for (const name of ["playlist.m3u8", "playlist-named.mp4", "playlist.avi", "concat.mp4"])
      expect((await refusal(probeMedia(file(name)))).kind, name).toBe("refused");
    for (const name of ["gab2.avi", "secret.txt"])
      expect((await refusal(probeMedia(file(name)))).kind, name).toBe("unsupported_format");
  });

  it("never transcodes them, and no output holds the local file's content", async () => {
    for (const name of hostile) {
      await refusal(transcodeVideoProxy(file(name), path.join(outDir, `${name}.mp4`)));
      await refusal(renderPoster(file(name), path.join(outDir, `${name}.jpg`)));
      await refusal(renderThumbnailStrip(file(name), path.join(outDir, `${name}-strip`)));
      await refusal(audioWaveform(file(name)));
    }
    outputsHoldNoSecret();
    const written = fs.readdirSync(outDir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
    expect(written).toEqual([]);
  });

  it("does not read metadata from a text file posing as an image", async () => {
    await refusal(extractImageMetadata(file("playlist-named.mp4")));
  });
});
