import { describe, expect, it, vi } from "vitest";
import {
  EMBED_MESSAGES,
  embedTarget,
  isFromOpener,
  isPing,
  isVideoEditCommand,
  openerOf,
  postToOpener,
  toEmbeddedStory,
} from "./protocol";

const CMS = "https://cms.example.com";
const ALLOWED = [CMS, "http://127.0.0.1:8081"];

describe("embedTarget", () => {
  it("accepts an allowed origin, with or without a trailing slash", () => {
    expect(embedTarget(`?origin=${encodeURIComponent(CMS)}`, ALLOWED)).toEqual({ ok: true, origin: CMS });
    expect(embedTarget(`?origin=${CMS}/`, ALLOWED)).toEqual({ ok: true, origin: CMS });
    expect(embedTarget("?origin=http://127.0.0.1:8081", ALLOWED)).toEqual({
      ok: true,
      origin: "http://127.0.0.1:8081",
    });
  });

  it("refuses an origin the allow-list does not name exactly", () => {
    for (const origin of [
      "https://evil.example.com",
      "http://cms.example.com",
      "https://cms.example.com:8443",
      "https://cms.example.com.evil.net",
      "https://sub.cms.example.com",
      "http://127.0.0.1:8082",
    ]) {
      expect(embedTarget(`?origin=${encodeURIComponent(origin)}`, ALLOWED), origin).toMatchObject({
        ok: false,
        reason: "not-allowed",
      });
    }
  });

  it("refuses what is not an origin: paths, wildcards, other schemes, nothing", () => {
    for (const origin of [`${CMS}/cms/page`, "*", "null", "javascript:alert(1)", "cms.example.com", `${CMS}?x=1`]) {
      expect(embedTarget(`?origin=${encodeURIComponent(origin)}`, [...ALLOWED, "*", "null"]), origin).toMatchObject({
        ok: false,
        reason: "invalid",
      });
    }
    expect(embedTarget("", ALLOWED)).toEqual({ ok: false, reason: "missing", origin: null });
    expect(embedTarget("?origin=", ALLOWED)).toEqual({ ok: false, reason: "missing", origin: null });
  });

  it("allows nothing with an empty allow-list", () => {
    expect(embedTarget(`?origin=${CMS}`, [])).toMatchObject({ ok: false, reason: "not-allowed" });
  });
});

describe("postToOpener", () => {
  it("posts to the exact target origin, never '*'", () => {
    const opener = { postMessage: vi.fn() };
    const sent = postToOpener(opener, { ok: true, origin: CMS }, { type: EMBED_MESSAGES.cancel });
    expect(sent).toBe(true);
    expect(opener.postMessage).toHaveBeenCalledExactlyOnceWith({ type: "dams:cancel" }, CMS);
  });

  it("posts nothing without an allowed target or without an opener", () => {
    const opener = { postMessage: vi.fn() };
    expect(
      postToOpener(
        opener,
        { ok: false, reason: "not-allowed", origin: "https://evil.example.com" },
        {
          type: EMBED_MESSAGES.cancel,
        },
      ),
    ).toBe(false);
    expect(postToOpener(null, { ok: true, origin: CMS }, { type: EMBED_MESSAGES.cancel })).toBe(false);
    expect(opener.postMessage).not.toHaveBeenCalled();
  });
});

describe("incoming messages", () => {
  const opener = {} as MessageEventSource;
  const other = {} as MessageEventSource;
  const target = { ok: true, origin: CMS } as const;

  it("are the opener's only from its origin and its window", () => {
    expect(isFromOpener({ origin: CMS, source: opener, data: null }, target, opener)).toBe(true);
    expect(isFromOpener({ origin: "https://evil.example.com", source: opener, data: null }, target, opener)).toBe(
      false,
    );
    expect(isFromOpener({ origin: CMS, source: other, data: null }, target, opener)).toBe(false);
    expect(isFromOpener({ origin: CMS, source: opener, data: null }, target, null)).toBe(false);
    const refused = { ok: false, reason: "not-allowed", origin: CMS } as const;
    expect(isFromOpener({ origin: CMS, source: opener, data: null }, refused, opener)).toBe(false);
  });

  it("answer a ping only from the opener", () => {
    const ping = { type: "dams:ping" };
    expect(isPing({ origin: CMS, source: opener, data: ping }, target, opener)).toBe(true);
    expect(isPing({ origin: "https://evil.example.com", source: opener, data: ping }, target, opener)).toBe(false);
    expect(isPing({ origin: CMS, source: opener, data: "dams:ping" }, target, opener)).toBe(false);
    expect(isPing({ origin: CMS, source: opener, data: null }, target, opener)).toBe(false);
  });

  it("take the video editor's edit command only from the opener, and only as that command", () => {
    const edit = { type: EMBED_MESSAGES.videoEdit };
    expect(isVideoEditCommand({ origin: CMS, source: opener, data: edit }, target, opener)).toBe(true);
    expect(isVideoEditCommand({ origin: CMS, source: other, data: edit }, target, opener)).toBe(false);
    expect(
      isVideoEditCommand({ origin: CMS, source: opener, data: { type: EMBED_MESSAGES.ping } }, target, opener),
    ).toBe(false);
    expect(isPing({ origin: CMS, source: opener, data: edit }, target, opener)).toBe(false);
  });
});

describe("openerOf", () => {
  it("is the parent frame when framed, else the window that opened the page", () => {
    const parent = { postMessage: vi.fn() } as unknown as Window;
    const framed = { parent, opener: null };
    expect(openerOf(framed)).toBe(parent);
    const popup = { opener: parent } as { parent: Window; opener: Window };
    popup.parent = popup as unknown as Window;
    expect(openerOf(popup)).toBe(parent);
    const alone = { opener: null } as { parent: Window; opener: null };
    alone.parent = alone as unknown as Window;
    expect(openerOf(alone)).toBeNull();
  });
});

describe("toEmbeddedStory", () => {
  it("gives the opener absolute URLs on our origin", () => {
    const story = toEmbeddedStory(
      {
        libraryId: "product",
        storyId: "0b7f7a52-5d3c-4c55-9d0c-000000000001",
        type: "photo",
        title: "台风",
        mime: "image/jpeg",
        width: 640,
        height: 480,
        duration: null,
        thumbnailUrl: "/dams/api/v1/stories/download/product/0b7f7a52-5d3c-4c55-9d0c-000000000001?rendition=thumbnail",
        coverUrl: null,
      },
      "https://dams.example.com",
    );
    expect(story.thumbnailUrl).toBe(
      "https://dams.example.com/dams/api/v1/stories/download/product/0b7f7a52-5d3c-4c55-9d0c-000000000001?rendition=thumbnail",
    );
    expect(story.downloadUrl).toBe(
      "https://dams.example.com/dams/api/v1/stories/download/product/0b7f7a52-5d3c-4c55-9d0c-000000000001",
    );
    expect(story.coverUrl).toBeNull();
    expect(story).toMatchObject({ libraryId: "product", type: "photo", title: "台风", width: 640 });
  });
});
