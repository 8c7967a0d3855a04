import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { extractImageMetadata } from "./image-metadata.js";
import { isoDate } from "./metadata-dates.js";
import { decodeLegacyBytes } from "./text-decoding.js";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dams-metadata-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A JPEG whose only metadata is an APP13 IPTC block with a caption (2:120) and a city (2:90), as raw bytes, no 1:90 charset. */
function withRawIptc(jpeg: Buffer, caption: Buffer, city: Buffer): Buffer {
  const dataset = (number: number, value: Buffer) =>
    Buffer.concat([Buffer.from([0x1c, 0x02, number, value.length >> 8, value.length & 0xff]), value]);
  const iptc = Buffer.concat([dataset(120, caption), dataset(90, city)]);
  const resource = Buffer.concat([
    Buffer.from("8BIM"),
    Buffer.from([0x04, 0x04, 0x00, 0x00]),
    Buffer.from([0, 0, iptc.length >> 8, iptc.length & 0xff]),
    iptc,
    iptc.length % 2 ? Buffer.from([0]) : Buffer.alloc(0),
  ]);
  const payload = Buffer.concat([Buffer.from("Photoshop 3.0\0"), resource]);
  const segment = Buffer.concat([
    Buffer.from([0xff, 0xed, (payload.length + 2) >> 8, (payload.length + 2) & 0xff]),
    payload,
  ]);
  return Buffer.concat([jpeg.subarray(0, 2), segment, jpeg.subarray(2)]);
}

let plainJpeg: Buffer;
beforeAll(async () => {
  plainJpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: "#3366aa" } })
    .jpeg()
    .toBuffer();
});

describe("extractImageMetadata", () => {
  it("reads EXIF, IPTC and XMP written by exiftool, Chinese text intact", async () => {
    const file = path.join(dir, "tagged.jpg");
    fs.writeFileSync(file, plainJpeg);
    execFileSync("exiftool", [
      "-q",
      "-overwrite_original",
      "-charset",
      "iptc=UTF8",
      "-IPTC:CodedCharacterSet=UTF8",
      "-EXIF:DateTimeOriginal=2024:07:18 09:30:05",
      "-EXIF:OffsetTimeOriginal=+08:00",
      "-EXIF:Make=Canon",
      "-EXIF:Model=Canon EOS R5",
      "-EXIF:LensModel=RF24-70mm F2.8 L IS USM",
      "-EXIF:Orientation#=6",
      "-GPSLatitude=22.5431",
      "-GPSLatitudeRef=N",
      "-GPSLongitude=114.0579",
      "-GPSLongitudeRef=E",
      "-GPSAltitude=12.5",
      "-GPSAltitudeRef=0",
      "-XMP-dc:Description=台风“泰利”在广东湛江登陆",
      "-XMP-dc:Title=台风登陆",
      "-XMP-photoshop:Headline=台风泰利登陆湛江",
      "-XMP-dc:Subject=台风",
      "-XMP-dc:Subject=湛江",
      "-IPTC:Keywords=广东",
      "-XMP-photoshop:Credit=新华社",
      "-XMP-dc:Creator=李明",
      "-XMP-dc:Rights=© 新华社 2024",
      "-XMP-photoshop:Source=新华社",
      "-XMP-photoshop:City=湛江",
      "-XMP-photoshop:Country=中国",
      file,
    ]);
    const metadata = await extractImageMetadata(file, { exiftoolFallback: false });
    expect(metadata).toMatchObject({
      capturedAt: "2024-07-18T09:30:05+08:00",
      cameraMake: "Canon",
      cameraModel: "Canon EOS R5",
      lens: "RF24-70mm F2.8 L IS USM",
      orientation: 6,
      width: 48,
      height: 64,
      caption: "台风“泰利”在广东湛江登陆",
      title: "台风登陆",
      headline: "台风泰利登陆湛江",
      credit: "新华社",
      creator: "李明",
      copyright: "© 新华社 2024",
      source: "新华社",
      city: "湛江",
      country: "中国",
    });
    expect(metadata.keywords).toEqual(["台风", "湛江", "广东"]);
    expect(metadata.gps?.latitude).toBeCloseTo(22.5431, 6);
    expect(metadata.gps?.longitude).toBeCloseTo(114.0579, 6);
    expect(metadata.gps?.altitude).toBeCloseTo(12.5, 3);
  });

  it("decodes IPTC that does not declare its character set: UTF-8, GB 18030 and Latin-1", async () => {
    const cases = [
      {
        name: "utf8",
        caption: Buffer.from("暴雨致城区内涝", "utf8"),
        city: Buffer.from("北京", "utf8"),
        expected: ["暴雨致城区内涝", "北京"],
      },
      {
        name: "gb18030",
        caption: Buffer.from(
          new Uint8Array([0xb1, 0xa9, 0xd3, 0xea, 0xd6, 0xc2, 0xb3, 0xc7, 0xc7, 0xf8, 0xc4, 0xda, 0xc0, 0xd4]),
        ),
        city: Buffer.from(new Uint8Array([0xb1, 0xb1, 0xbe, 0xa9])),
        expected: ["暴雨致城区内涝", "北京"],
      },
      {
        name: "latin1",
        caption: Buffer.from("Café crème à Zürich", "latin1"),
        city: Buffer.from("Zürich", "latin1"),
        expected: ["Café crème à Zürich", "Zürich"],
      },
    ];
    for (const { name, caption, city, expected } of cases) {
      const file = path.join(dir, `iptc-${name}.jpg`);
      fs.writeFileSync(file, withRawIptc(plainJpeg, caption, city));
      const metadata = await extractImageMetadata(file, { exiftoolFallback: false });
      expect([metadata.caption, metadata.city], name).toEqual(expected);
    }
  });

  it("decodes XML entities in XMP once, as exiftool does, in JPEG and in PNG (iTXt)", async () => {
    const title = `Fish & Chips 'n' "<b>" &amp; 台风`;
    const png = path.join(dir, "xmp.png");
    fs.writeFileSync(png, await sharp(plainJpeg).png().toBuffer());
    const jpeg = path.join(dir, "xmp.jpg");
    fs.writeFileSync(jpeg, plainJpeg);
    for (const file of [jpeg, png]) {
      execFileSync("exiftool", [
        "-q",
        "-overwrite_original",
        `-XMP-dc:Title=${title}`,
        "-XMP-dc:Description=a < b > c",
        "-XMP-dc:Subject=R&D",
        "-XMP-dc:Subject=Q&A",
        "-XMP-dc:Creator=O'Brien",
        "-XMP-photoshop:City=Ürümqi & Kashgar",
        file,
      ]);
      // What exiftool itself reads back is the reference.
      const reference = JSON.parse(execFileSync("exiftool", ["-j", "-XMP:Title", file], { encoding: "utf8" }))[0];
      expect(reference.Title).toBe(title);
      const metadata = await extractImageMetadata(file, { exiftoolFallback: false });
      expect(metadata, file).toMatchObject({
        title,
        caption: "a < b > c",
        keywords: ["R&D", "Q&A"],
        creator: "O'Brien",
        city: "Ürümqi & Kashgar",
      });
    }
  });

  it("keeps what it can read from a file with broken EXIF, and refuses what is not an image", async () => {
    const broken = path.join(dir, "broken-exif.jpg");
    // An APP1 "Exif" segment whose TIFF header points far outside the segment.
    const exif = Buffer.concat([Buffer.from("Exif\0\0MM\0\x2a", "latin1"), Buffer.from([0x7f, 0xff, 0xff, 0xff])]);
    const segment = Buffer.concat([Buffer.from([0xff, 0xe1, 0, exif.length + 2]), exif]);
    fs.writeFileSync(broken, Buffer.concat([plainJpeg.subarray(0, 2), segment, plainJpeg.subarray(2)]));
    const metadata = await extractImageMetadata(broken, { exiftoolFallback: false });
    expect(metadata.width).toBe(64);
    expect(metadata.capturedAt).toBeNull();

    const text = path.join(dir, "notes.jpg");
    fs.writeFileSync(text, "just some text, not a picture");
    await expect(extractImageMetadata(text)).rejects.toMatchObject({ kind: "unsupported_format" });
  });

  it("turns EXIF and XMP dates into ISO 8601 and rejects empty ones", () => {
    expect(isoDate("2008:10:22 16:28:39")).toBe("2008-10-22T16:28:39");
    expect(isoDate("2008:10:22 16:28:39", "-05:00")).toBe("2008-10-22T16:28:39-05:00");
    expect(isoDate("2005-09-07T15:07:40-07:00")).toBe("2005-09-07T15:07:40-07:00");
    expect(isoDate("0000:00:00 00:00:00")).toBeNull();
    expect(isoDate("    :  :     :  :  ")).toBeNull();
  });

  it("does not read Western Latin-1 pairs as Chinese", () => {
    expect(decodeLegacyBytes(Buffer.from("Ärger über Öl", "latin1"))).toBe("Ärger über Öl");
  });
});
