import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

export const CORPUS = path.resolve(import.meta.dirname, "../../../../../shared/corpus/exif-samples/jpg");

export function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/**
 * A JPEG (so it passes the content check and the media job can decode it)
 * grown to `size` bytes: a corpus photo, then a seeded pattern. Deterministic,
 * so a failure can be repeated.
 */
export function largeJpeg(size: number): Buffer {
  const head = fs.readFileSync(path.join(CORPUS, "mobile/HMD_Nokia_8.3_5G.jpg"));
  const file = Buffer.allocUnsafe(size);
  head.copy(file);
  let state = 0x9e3779b9;
  for (let index = head.length; index < size; index += 4) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    file.writeUInt32LE(state >>> 0, Math.min(index, size - 4));
  }
  return file;
}

/** Distinct small JPEGs: corpus photos with their number in a comment after SOI (so no two are the same bytes). */
export function photos(count: number): Buffer[] {
  const sources = ["Canon_40D.jpg", "mobile/HMD_Nokia_8.3_5G.jpg", "Nikon_D70.jpg"]
    .map((name) => path.join(CORPUS, name))
    .filter((file) => fs.existsSync(file))
    .map((file) => fs.readFileSync(file));
  return Array.from({ length: count }, (_, index) => {
    const source = sources[index % sources.length]!;
    const text = Buffer.from(`multi-node photo ${index}`);
    const comment = Buffer.alloc(4);
    comment.writeUInt16BE(0xfffe, 0);
    comment.writeUInt16BE(text.length + 2, 2);
    return Buffer.concat([source.subarray(0, 2), comment, text, source.subarray(2)]);
  });
}

/**
 * A video whose proxy takes a while to make (so a worker can be killed in the
 * middle of it): test pattern and tone, H.264/AAC, made with ffmpeg.
 */
export function testVideo(file: string, seconds: number): Buffer {
  const result = spawnSync(
    "ffmpeg",
    [
      "-v",
      "error",
      "-y",
      "-f",
      "lavfi",
      "-i",
      `testsrc2=size=640x360:rate=25:duration=${seconds}`,
      "-f",
      "lavfi",
      "-i",
      `sine=frequency=440:duration=${seconds}`,
      "-c:v",
      "libx264",
      "-preset",
      "ultrafast",
      "-c:a",
      "aac",
      "-shortest",
      file,
    ],
    { encoding: "utf8" },
  );
  if (result.status !== 0) throw new Error(`ffmpeg: ${result.stderr}`);
  return fs.readFileSync(file);
}
