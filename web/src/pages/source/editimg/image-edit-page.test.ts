import { describe, expect, it } from "vitest";
import { editedName, editTarget } from "./image-edit-page";

describe("what /source/editimg and /source/editphoto edit", () => {
  it("a file handed over in the router state comes first", () => {
    const file = new Blob(["x"], { type: "image/png" });
    expect(editTarget({ file, fileName: "a.png" }, new URLSearchParams("library=l&story=s"))).toEqual({
      kind: "file",
      file,
      name: "a.png",
    });
  });
  it("a story by ?library=&story=", () => {
    expect(editTarget(null, new URLSearchParams("library=product&story=42"))).toEqual({
      kind: "story",
      libraryId: "product",
      storyId: "42",
    });
    expect(editTarget(null, new URLSearchParams("library=product"))).toBeNull();
  });
  it("a URL of our origin, data or blob only", () => {
    expect(editTarget(null, new URLSearchParams("url=/dams/api/v1/x"))).toEqual({ kind: "url", url: "/dams/api/v1/x" });
    expect(editTarget(null, new URLSearchParams("url=data:image/png;base64,AA=="))).toMatchObject({ kind: "url" });
    expect(editTarget(null, new URLSearchParams("url=https://elsewhere.example/a.jpg"))).toBeNull();
    // Protocol-relative addresses are other hosts too (browsers read /\ as //).
    expect(editTarget(null, new URLSearchParams("url=//elsewhere.example/a.jpg"))).toBeNull();
    expect(editTarget(null, new URLSearchParams("url=/\\elsewhere.example/a.jpg"))).toBeNull();
    expect(editTarget(null, new URLSearchParams())).toBeNull();
  });
  it("names the edited download after the original, with the encoded type's extension", () => {
    expect(editedName("IMG_1.bmp", "image/jpeg")).toBe("IMG_1-edited.jpg");
    expect(editedName("logo.png", "image/png")).toBe("logo-edited.png");
    expect(editedName("", "image/webp")).toBe("image-edited.webp");
  });
});
