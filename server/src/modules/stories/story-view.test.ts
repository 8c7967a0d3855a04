import { describe, expect, it } from "vitest";
import { API_PREFIX } from "../../http/error-handler.js";
import { fileUrl } from "./story-view.js";

/** The URL as it was written with URLSearchParams, to compare with. */
function viaSearchParams(libraryId: string, id: string, role: string, versionNo?: number): string {
  const query = new URLSearchParams({ rendition: role });
  if (versionNo !== undefined) query.set("versionNo", String(versionNo));
  return `${API_PREFIX}/stories/download/${encodeURIComponent(libraryId)}/${id}?${query}`;
}

describe("fileUrl", () => {
  it("writes the same URL URLSearchParams wrote, for every role and with or without a version", () => {
    const story = { libraryId: "product", id: "0b6f1d3e-1111-4222-8333-944445555666" };
    const roles = ["original", "thumbnail", "cover", "strip-2", "a_b.c*d", "with space", "ä/?&=#+", "!'()~", ""];
    for (const role of roles) {
      for (const versionNo of [undefined, 1, 12]) {
        expect(fileUrl(story, role, versionNo)).toBe(viaSearchParams(story.libraryId, story.id, role, versionNo));
      }
    }
    expect(fileUrl({ libraryId: "a b/c", id: "x" }, "original")).toBe(viaSearchParams("a b/c", "x", "original"));
  });
});
