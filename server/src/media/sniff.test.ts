import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RefusedFileType, sniffBuffer, sniffFile } from "./sniff.js";

const CORPUS = path.resolve(import.meta.dirname, "../../../../shared/corpus/exif-samples");
const corpus = (name: string) => path.join(CORPUS, name);

describe("sniff: real files are recognised by their content", () => {
  let scratch: string;
  /** Tiny media made with ffmpeg, one per container we accept. */
  const made: Record<string, string> = {};

  beforeAll(() => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), "dams-sniff-"));
    const video = ["-f", "lavfi", "-i", "testsrc=size=64x48:rate=5:duration=0.4"];
    const audio = ["-f", "lavfi", "-i", "sine=frequency=440:duration=0.4"];
    const recipes: Record<string, string[]> = {
      "clip.mp4": [...video, "-c:v", "libx264", "-pix_fmt", "yuv420p"],
      "clip.mov": [...video, "-c:v", "mjpeg"],
      "clip.webm": [...video, "-c:v", "libvpx", "-b:v", "50k"],
      "clip.mkv": [...video, "-c:v", "mjpeg"],
      "clip.avi": [...video, "-c:v", "mjpeg"],
      "clip.ts": [...video, "-c:v", "mpeg2video"],
      "clip.3gp": [...video, "-s", "176x144", "-c:v", "h263"],
      "sound.mp3": [...audio, "-c:a", "libmp3lame"],
      "sound.wav": [...audio],
      "sound.flac": [...audio],
      "sound.ogg": [...audio, "-c:a", "libvorbis"],
      "sound.opus": [...audio, "-c:a", "libopus"],
      "sound.m4a": [...audio, "-c:a", "aac"],
      "sound.aac": [...audio, "-c:a", "aac", "-f", "adts"],
      "still.png": [...video, "-frames:v", "1"],
      "still.gif": [...video, "-frames:v", "1"],
      "still.bmp": [...video, "-frames:v", "1"],
      "still.webp": [...video, "-frames:v", "1", "-c:v", "libwebp"],
    };
    for (const [name, args] of Object.entries(recipes)) {
      const file = path.join(scratch, name);
      execFileSync("ffmpeg", ["-v", "error", "-y", ...args, file]);
      made[name] = file;
    }
  });
  afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

  it.each([
    ["jpg/Canon_40D.jpg", "photo", "image/jpeg", "jpg"],
    ["jpg/mobile/HMD_Nokia_8.3_5G.jpg", "photo", "image/jpeg", "jpg"],
    ["tiff/Arbitro.tiff", "photo", "image/tiff", "tif"],
    ["heic/IMG_5195.HEIC", "photo", "image/heic", "heic"],
  ])("corpus %s → %s %s", async (name, kind, mime, extension) => {
    expect(await sniffFile(corpus(name))).toEqual({ kind, mime, extension });
  });

  it.each([
    ["clip.mp4", "video", "video/mp4"],
    ["clip.mov", "video", "video/quicktime"],
    ["clip.webm", "video", "video/webm"],
    ["clip.mkv", "video", "video/matroska"],
    ["clip.avi", "video", "video/vnd.avi"],
    ["clip.ts", "video", "video/mp2t"],
    ["clip.3gp", "video", "video/3gpp"],
    ["sound.mp3", "audio", "audio/mpeg"],
    ["sound.wav", "audio", "audio/wav"],
    ["sound.flac", "audio", "audio/flac"],
    ["sound.ogg", "audio", "audio/ogg"],
    ["sound.opus", "audio", "audio/ogg"],
    ["sound.m4a", "audio", "audio/x-m4a"],
    ["sound.aac", "audio", "audio/aac"],
    ["still.png", "photo", "image/png"],
    ["still.gif", "photo", "image/gif"],
    ["still.bmp", "photo", "image/bmp"],
    ["still.webp", "photo", "image/webp"],
  ])("ffmpeg-made %s → %s %s", async (name, kind, mime) => {
    const sniffed = await sniffFile(made[name]!);
    expect(sniffed.kind).toBe(kind);
    expect(sniffed.mime).toBe(mime);
  });
});

describe("sniff: everything else is refused, named, with what is accepted", () => {
  /** Each refusal with the words it names, and its msgCode and msgParams (beside the accepted types). */
  const refusals: [string, Buffer, RegExp, string, Record<string, string>][] = [
    [
      "HTML named .jpg",
      Buffer.from("<!DOCTYPE html><html><script>alert(1)</script></html>"),
      /an HTML document/,
      "file.refused",
      { content: "html" },
    ],
    [
      "HTML fragment",
      Buffer.from("\n  <script>fetch('/dams/api/v1/users')</script>"),
      /an HTML document/,
      "file.refused",
      { content: "html" },
    ],
    [
      "SVG",
      Buffer.from('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'),
      /an SVG image/,
      "file.refused",
      { content: "svg" },
    ],
    [
      "HLS playlist",
      Buffer.from("#EXTM3U\n#EXT-X-MEDIA-SEQUENCE:0\n#EXTINF:10,\nfile:///etc/passwd\n"),
      /a playlist \(M3U\/HLS\)/,
      "file.refused",
      { content: "playlist" },
    ],
    ["shell script", Buffer.from("#!/bin/sh\nrm -rf /\n"), /a script/, "file.refused", { content: "script" }],
    ["PDF", Buffer.from("%PDF-1.7\n1 0 obj\n<<>>\nendobj\n"), /a PDF document/, "file.refused", { content: "pdf" }],
    [
      "ELF executable",
      fs.readFileSync(process.execPath).subarray(0, 8192),
      /an executable program \(ELF\)/,
      "file.refused",
      { content: "elf" },
    ],
    [
      "ZIP archive",
      Buffer.concat([Buffer.from("PK\u0003\u0004"), Buffer.alloc(60)]),
      /archive/,
      "file.refused",
      { content: "zip" },
    ],
    [
      "an ICO icon (a type file-type knows, with no description of its own)",
      Buffer.concat([Buffer.from([0, 0, 1, 0, 1, 0, 16, 16, 0, 0, 1, 0, 32, 0]), Buffer.alloc(64)]),
      /a ICO file \(image\/x-icon\)/,
      "file.refusedType",
      { type: "ICO", mime: "image/x-icon" },
    ],
    ["plain text", Buffer.from("just some words, no magic"), /could not be recognised/, "file.unrecognised", {}],
    ["nothing", Buffer.alloc(0), /empty/, "file.empty", {}],
  ];

  it.each(refusals)("%s", async (_, content, named, msgCode, msgParams) => {
    const refusal = await sniffBuffer(content).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(RefusedFileType);
    const { status, code, message } = refusal as RefusedFileType;
    expect(status).toBe(415);
    expect(code).toBe("unsupported_file_type");
    expect(message).toMatch(named);
    expect(message).toContain("Accepted: images (JPEG, PNG, GIF, WebP, TIFF, HEIC, HEIF, AVIF, BMP)");
    expect(message).toContain("video (MP4, MOV");
    expect(message).toContain("audio (MP3");
    // The code and values the web app translates it by (server-messages.ts).
    expect((refusal as RefusedFileType).msgCode).toBe(msgCode);
    expect((refusal as RefusedFileType).msgParams).toEqual({
      ...msgParams,
      photoTypes: "JPEG, PNG, GIF, WebP, TIFF, HEIC, HEIF, AVIF, BMP",
      videoTypes: expect.stringMatching(/^MP4, MOV/),
      audioTypes: expect.stringMatching(/^MP3/),
    });
  });

  it("judges by the leading bytes: JPEG bytes behind an HTML prefix are refused", async () => {
    const head = fs.readFileSync(corpus("jpg/Canon_40D.jpg")).subarray(0, 4096);
    const shifted = Buffer.concat([Buffer.from("<html>"), head]);
    await expect(sniffBuffer(shifted)).rejects.toBeInstanceOf(RefusedFileType);
  });
});
