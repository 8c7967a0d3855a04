import { describe, expect, it } from "vitest";
import type { DiskNode } from "../../../../api/disk";
import { actionsFor } from "./disk-table";
import { previewKind } from "./preview-dialog";

const node = (overrides: Partial<DiskNode>): DiskNode => ({
  id: "n",
  parentId: null,
  kind: "file",
  name: "a.jpg",
  size: 1,
  mime: "image/jpeg",
  ownerId: "u",
  createdAt: "",
  updatedAt: "",
  trashedAt: null,
  access: "owner",
  ...overrides,
});

describe("disk row actions", () => {
  it("follow the caller's access: view previews only, download adds download and send, edit changes, owner shares", () => {
    expect(actionsFor(node({ access: "view" }), true)).toEqual(["preview"]);
    expect(actionsFor(node({ access: "download" }), true)).toEqual(["preview", "download", "send"]);
    expect(actionsFor(node({ access: "edit" }), true)).toEqual([
      "preview",
      "download",
      "send",
      "rename",
      "move",
      "delete",
    ]);
    expect(actionsFor(node({ access: "owner" }), true)).toContain("share");
    expect(actionsFor(node({ access: "owner" }), false)).not.toContain("share");
    expect(actionsFor(node({ kind: "folder", access: "owner" }), true)).toEqual([
      "open",
      "rename",
      "move",
      "share",
      "delete",
    ]);
  });

  it("previews passive media only; HTML, SVG and unknown bytes get none", () => {
    expect(previewKind("image/jpeg")).toBe("image");
    expect(previewKind("video/mp4")).toBe("video");
    expect(previewKind("audio/mpeg")).toBe("audio");
    expect(previewKind("image/svg+xml")).toBeNull();
    expect(previewKind("application/octet-stream")).toBeNull();
    expect(previewKind(null)).toBeNull();
  });
});
