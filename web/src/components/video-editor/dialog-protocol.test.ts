import { describe, expect, it } from "vitest";
import { EMBED_MESSAGES } from "../embed/protocol";
import { editorMessage, editorUrl, landingUrl } from "./dialog-protocol";

const origin = "https://dams.example.com";
const frame = {} as MessageEventSource;

describe("the video edit dialog's messages", () => {
  it("takes the editor's messages from our origin and the frame only", () => {
    const rendered = { type: EMBED_MESSAGES.videoRendered, videoUrl: "/r/1/file", title: "发布会" };
    expect(editorMessage({ origin, source: frame, data: rendered }, origin, frame)).toEqual({
      type: "rendered",
      videoUrl: "/r/1/file",
      title: "发布会",
    });
    expect(editorMessage({ origin: "https://evil.example", source: frame, data: rendered }, origin, frame)).toBeNull();
    expect(editorMessage({ origin, source: {} as MessageEventSource, data: rendered }, origin, frame)).toBeNull();
    expect(editorMessage({ origin, source: frame, data: rendered }, origin, null)).toBeNull();
    expect(editorMessage({ origin, source: frame, data: "dams:video-rendered" }, origin, frame)).toBeNull();
    expect(editorMessage({ origin, source: frame, data: { ...rendered, videoUrl: 3 } }, origin, frame)).toBeNull();
    expect(
      editorMessage(
        { origin, source: frame, data: { type: EMBED_MESSAGES.ready, page: "ismpVideosEdit" } },
        origin,
        frame,
      ),
    ).toEqual({ type: "ready" });
    expect(
      editorMessage({ origin, source: frame, data: { type: EMBED_MESSAGES.ready, page: "ismpsource" } }, origin, frame),
    ).toBeNull();
    expect(
      editorMessage(
        { origin, source: frame, data: { type: EMBED_MESSAGES.videoError, message: "bad" } },
        origin,
        frame,
      ),
    ).toEqual({ type: "error", message: "bad" });
  });

  it("opens the editor with our origin, and lands in the library's videos", () => {
    expect(editorUrl(origin, "slideshow")).toBe(
      "/source/ismpVideosEdit?origin=https%3A%2F%2Fdams.example.com&mode=slideshow",
    );
    expect(editorUrl(origin, "video", { libraryId: "material", storyId: "s1" })).toContain(
      "mode=video&libraryId=material&storyId=s1",
    );
    expect(landingUrl("material")).toBe("/frontend/material?types=VIDEO");
    expect(landingUrl("product", "f-1")).toBe("/frontend/product/f-1?types=VIDEO");
  });
});
