import { describe, expect, it } from "vitest";
import { createI18n } from "../locales/both-languages";
import { serverMessage } from "./server-messages";

const translator = (language: "zh-CN" | "en-US") => {
  const i18n = createI18n(language);
  return {
    t: (key: string, params?: Record<string, unknown>) => i18n.t(key, params),
    exists: (key: string, params?: Record<string, unknown>) => i18n.exists(key, params),
  };
};

describe("server messages in the user's language", () => {
  const refused = {
    msg: "url: Refused: 10.0.0.1 is a private address (RFC 1918); the server does not fetch from private or local networks.",
    msgCode: "fetch.address",
    msgParams: { host: "10.0.0.1", address: "10.0.0.1", range: "private" },
  };

  it("translates a message by its code, with its values and their own translations", () => {
    expect(serverMessage(refused, translator("zh-CN"))).toBe(
      "已拒绝：10.0.0.1 是私有地址（RFC 1918）；服务器不从内网或本机地址下载。",
    );
    expect(serverMessage(refused, translator("en-US"))).toBe(
      "Refused: 10.0.0.1 is a private address (RFC 1918); the server does not fetch from private or local networks.",
    );
  });

  it("keeps a value that has no translation of its own as it is", () => {
    const unknownRange = { ...refused, msgParams: { ...refused.msgParams, range: "somewhere-new" } };
    expect(serverMessage(unknownRange, translator("zh-CN"))).toBe(
      "已拒绝：10.0.0.1 是somewhere-new；服务器不从内网或本机地址下载。",
    );
  });

  it("falls back to the server's own text without a code, or with a code the locale files do not know", () => {
    const t = translator("zh-CN");
    expect(serverMessage({ msg: "something the server said" }, t)).toBe("something the server said");
    expect(serverMessage({ msg: "new refusal", msgCode: "fetch.notYetTranslated", msgParams: {} }, t)).toBe(
      "new refusal",
    );
    expect(serverMessage({ msg: "from a stored row", msgCode: null, msgParams: null }, t)).toBe("from a stored row");
  });

  it("chooses the plural form by count", () => {
    const inUse = (count: number) => ({
      msg: `the tag "航天" is used by ${count} stories and cannot be deleted`,
      msgCode: "catalogue.inUse",
      msgParams: { name: "航天", count },
    });
    const en = translator("en-US");
    expect(serverMessage(inUse(1), en)).toBe('"航天" is used by 1 story and cannot be deleted.');
    expect(serverMessage(inUse(3), en)).toBe('"航天" is used by 3 stories and cannot be deleted.');
    expect(serverMessage(inUse(3), translator("zh-CN"))).toBe("“航天”被 3 个稿件使用，不能删除。");
  });

  it("translates the states a refusal names", () => {
    const message = { msg: "this fetch is done", msgCode: "fetch.notCancellable", msgParams: { state: "done" } };
    expect(serverMessage(message, translator("zh-CN"))).toBe("该下载已完成；只能取消排队中或下载中的任务。");
  });

  it("translates the content sniffer's refusals: what the file is, and the accepted types", () => {
    const accepted = { photoTypes: "JPEG, PNG", videoTypes: "MP4, MOV", audioTypes: "MP3, AAC" };
    const html = {
      msg: "This file is an HTML document, which cannot be uploaded. Accepted: images (JPEG, PNG), video (MP4, MOV) and audio (MP3, AAC).",
      msgCode: "file.refused",
      msgParams: { content: "html", ...accepted },
    };
    expect(serverMessage(html, translator("en-US"))).toBe(html.msg);
    expect(serverMessage(html, translator("zh-CN"))).toBe(
      "此文件是HTML 网页，不能上传。可上传：图片（JPEG, PNG）、视频（MP4, MOV）和音频（MP3, AAC）。",
    );
    const other = {
      msg: "This file is a ICO file (image/x-icon), which cannot be uploaded. Accepted: images (JPEG, PNG), video (MP4, MOV) and audio (MP3, AAC).",
      msgCode: "file.refusedType",
      msgParams: { type: "ICO", mime: "image/x-icon", ...accepted },
    };
    expect(serverMessage(other, translator("en-US"))).toBe(other.msg);
    expect(serverMessage(other, translator("zh-CN"))).toBe(
      "此文件是 ICO 文件（image/x-icon），不能上传。可上传：图片（JPEG, PNG）、视频（MP4, MOV）和音频（MP3, AAC）。",
    );
    expect(
      serverMessage({ msg: "This file is empty, …", msgCode: "file.empty", msgParams: accepted }, translator("zh-CN")),
    ).toBe("此文件为空，不能上传。可上传：图片（JPEG, PNG）、视频（MP4, MOV）和音频（MP3, AAC）。");
  });

  it("translates the image editor's refusal of a file that is not an image it can save", () => {
    const html = {
      msg: "base64String: this file is an HTML document; only JPEG, PNG and WebP images are accepted",
      msgCode: "image.refused",
      msgParams: { content: "html" },
    };
    expect(serverMessage(html, translator("zh-CN"))).toBe("此文件是HTML 网页。只接受 JPEG、PNG 和 WebP 图片。");
    expect(serverMessage(html, translator("en-US"))).toBe(
      "This file is an HTML document. Only JPEG, PNG and WebP images are accepted.",
    );
    const video = { msg: "…", msgCode: "image.refusedType", msgParams: { type: "MP4", mime: "video/mp4" } };
    expect(serverMessage(video, translator("zh-CN"))).toBe(
      "此文件是 MP4 文件（video/mp4）。只接受 JPEG、PNG 和 WebP 图片。",
    );
  });
});
