import { describe, expect, it } from "vitest";
import { downloadFileName, fileStem } from "./story-downloads.service.js";

const story = (title: string, originalName: string | null = "IMG_0001.JPG") => ({ id: "s-1", title, originalName });

describe("download file names", () => {
  it("names the original <title>.<ext> with the uploaded file's extension when the content type has it, else the type's", () => {
    expect(downloadFileName(story("台风登陆"), "original", "image/jpeg")).toBe("台风登陆.JPG");
    expect(downloadFileName(story("scan"), "original", "image/tiff", "scan.tiff")).toBe("scan.tiff");
    // The bytes decide: a MOV name on MP4 content, an HTML name on a JPEG.
    expect(downloadFileName(story("clip"), "original", "video/mp4", "clip-edit.mov")).toBe("clip.mp4");
    expect(downloadFileName(story("", "poly.html"), "original", "image/jpeg")).toBe("poly.jpg");
    expect(downloadFileName(story("poly.html", "poly.html"), "original", "image/jpeg")).toBe("poly.html.jpg");
    expect(downloadFileName(story("录音", "无扩展名"), "original", "audio/mpeg")).toBe("录音.mp3");
    expect(downloadFileName(story("x", null), "original", "application/x-unknown")).toBe("x.bin");
  });

  it("suffixes renditions and the cover with their role, with the rendition's type", () => {
    expect(downloadFileName(story("台风"), "thumbnail", "image/webp")).toBe("台风-thumbnail.webp");
    expect(downloadFileName(story("台风"), "proxy", "video/mp4")).toBe("台风-proxy.mp4");
    expect(downloadFileName(story("台风"), "cover", "image/jpeg")).toBe("台风-cover.jpg");
  });

  it("keeps an extension the title already has once, and falls back to the original's name, then the id", () => {
    expect(downloadFileName(story("report.jpg", "report.jpg"), "original", "image/jpeg")).toBe("report.jpg");
    expect(downloadFileName(story("", "现场照片.jpg"), "original", "image/jpeg")).toBe("现场照片.jpg");
    expect(downloadFileName(story("  ", null), "original", "image/png")).toBe("s-1.png");
  });

  it("makes a title safe as a file name without losing its text", () => {
    expect(fileStem("“山竹”过境: 深圳/香港")).toBe("“山竹”过境_ 深圳_香港");
    expect(fileStem("..hidden\u0000name\t\ttab ")).toBe("hidden_name tab");
    expect(fileStem("photo\u202egnp.exe; x")).toBe("photognp.exe_ x");
    expect(fileStem('a\\b*c?d"e<f>g|h')).toBe("a_b_c_d_e_f_g_h");
    const long = fileStem("台".repeat(100));
    expect(Buffer.byteLength(long, "utf8")).toBeLessThanOrEqual(200);
    expect(long).toBe("台".repeat(66));
  });
});
