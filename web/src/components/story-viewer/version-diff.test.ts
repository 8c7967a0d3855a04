import { describe, expect, it } from "vitest";
import { versionAuthors, versionDifferences, versionImage } from "./version-diff";

const file = (role: string, extra: Partial<{ width: number; height: number; mime: string }> = {}) => ({
  role,
  width: extra.width ?? null,
  height: extra.height ?? null,
  mime: extra.mime ?? "image/jpeg",
  mediaUrl: `/dams/api/v1/media/${role}`,
});

const version = (versionNo: number, overrides: Record<string, unknown> = {}) => ({
  versionNo,
  size: 2048,
  mime: "image/jpeg",
  sha256: "a".repeat(64),
  originalName: "台风.jpg",
  createdBy: "user-1",
  createdAt: "2026-01-01T00:00:00.000Z",
  note: null,
  files: [file("original", { width: 800, height: 600 })],
  ...overrides,
});

describe("version differences", () => {
  it("marks exactly the fields that differ", () => {
    const rows = versionDifferences(
      version(1),
      version(2, {
        size: 4096,
        sha256: "b".repeat(64),
        createdAt: "2026-01-02T00:00:00.000Z",
        files: [file("original", { width: 400, height: 300 })],
      }),
      new Map([
        [1, "alice"],
        [2, "bob"],
      ]),
      (iso) => iso.slice(0, 10),
    );
    const different = rows.filter((row) => row.different).map((row) => row.field);
    expect(different).toEqual(["size", "dimensions", "checksum", "createdBy", "createdAt"]);
    expect(rows.find((row) => row.field === "dimensions")).toMatchObject({ a: "800 × 600", b: "400 × 300" });
    expect(rows.find((row) => row.field === "createdBy")).toMatchObject({ a: "alice", b: "bob" });
    expect(rows.find((row) => row.field === "mime")).toMatchObject({ different: false });
  });

  it("compares sizes exactly, not as rounded text", () => {
    const rows = versionDifferences(version(1, { size: 2048 }), version(2, { size: 2049 }), new Map(), (iso) => iso);
    expect(rows.find((row) => row.field === "size")).toMatchObject({ a: "2.0 KB", b: "2.0 KB", different: true });
  });

  it("names who made each version from the action trail", () => {
    const authors = versionAuthors([
      { action: "new-version", username: "bob", details: { versionNo: 2 } },
      { action: "edit", username: "carol", details: {} },
      { action: "create", username: "alice", details: {} },
    ]);
    expect([...authors]).toEqual([
      [2, "bob"],
      [1, "alice"],
    ]);
  });

  it("shows a version by its preview, else its thumbnail, else an original a browser can show", () => {
    expect(versionImage(version(1, { files: [file("original"), file("thumbnail"), file("preview")] }))).toBe(
      "/dams/api/v1/media/preview",
    );
    expect(versionImage(version(1, { files: [file("original"), file("thumbnail")] }))).toBe(
      "/dams/api/v1/media/thumbnail",
    );
    expect(versionImage(version(1))).toBe("/dams/api/v1/media/original");
    expect(versionImage(version(1, { files: [file("original", { mime: "image/tiff" })] }))).toBeNull();
  });
});
