import { describe, expect, it } from "vitest";
import { metaFieldsFor } from "./use-uppy";

describe("the Upload-Metadata an upload page sends", () => {
  it("names a target only for the disk, so a library upload never sends target=undefined", () => {
    for (const type of ["photo", "video", "audio"] as const) {
      expect(metaFieldsFor(type)).not.toContain("target");
      expect(metaFieldsFor(type)).not.toContain("diskFolderId");
      expect(metaFieldsFor(type)).toEqual(expect.arrayContaining(["name", "libraryId", "folderId", "caption"]));
    }
    expect(metaFieldsFor("disk")).toEqual(expect.arrayContaining(["target", "diskFolderId"]));
  });
});
