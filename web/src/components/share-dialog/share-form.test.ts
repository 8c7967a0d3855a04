import { describe, expect, it } from "vitest";
import { initialShareValues, locationMatters, shareBody } from "./share-form";

describe("the share form's body", () => {
  it("sends the download preset only with the preset policy", () => {
    const values = { ...initialShareValues("t"), downloadPolicy: "preset" as const, downloadPresetId: "p-1" };
    expect(shareBody(values)).toMatchObject({ downloadPolicy: "preset", downloadPresetId: "p-1" });
    expect(shareBody({ ...values, downloadPolicy: "original" })).toMatchObject({ downloadPresetId: null });
  });

  it("keeps location only where it matters: all metadata, or originals and preset renditions", () => {
    const base = { ...initialShareValues("t"), keepLocation: true };
    expect(locationMatters(base)).toBe(false);
    expect(shareBody(base).keepLocation).toBe(false);
    expect(shareBody({ ...base, downloadPolicy: "original" }).keepLocation).toBe(true);
    expect(shareBody({ ...base, downloadPolicy: "preset" }).keepLocation).toBe(true);
    expect(shareBody({ ...base, metadata: "all" }).keepLocation).toBe(true);
    expect(shareBody({ ...base, downloadPolicy: "original", keepLocation: false }).keepLocation).toBe(false);
  });
});
