import { describe, expect, it } from "vitest";
import { DEFAULT_WATERMARK, type WatermarkPreset } from "../../api/presets";
import { emptyEdl } from "./edit-operations";
import { edlSchema } from "./edl";
import { logoOfPreset } from "./logo-panel";
import { slideCaption } from "./use-video-edit-session";

const preset = (settings: Partial<WatermarkPreset["settings"]>, image: WatermarkPreset["image"]): WatermarkPreset => ({
  id: "0b3c8a46-4c63-4d0b-9d25-0d7f5c1c2d11",
  name: "台标",
  settings: { ...DEFAULT_WATERMARK, position: "upper-right", opacity: 80, ...settings },
  image,
  revision: 1,
  createdAt: "",
  updatedAt: "",
});

const clip = {
  id: "c1",
  kind: "video" as const,
  source: { libraryId: "material", storyId: "s1" },
  in: 0,
  out: 5,
  volume: 1,
  muted: false,
  transition: { type: "cut" as const, duration: 0 },
  reframe: { mode: "crop" as const, x: 0.5, y: 0.5 },
};

describe("the logo from a watermark preset", () => {
  it("an image preset draws its image: presetId, position, opacity, its width as a share of a 1080p frame", () => {
    const logo = logoOfPreset(preset({}, { type: "image/png", width: 384, height: 100 }));
    expect(logo).toMatchObject({ type: 1, presetId: "0b3c8a46-4c63-4d0b-9d25-0d7f5c1c2d11", position: "upper-right" });
    expect(logo.opacity).toBe(80);
    expect(logo.sizePercent).toBe(20);
    expect(edlSchema.safeParse({ ...emptyEdl("x"), clips: [clip], logo }).success).toBe(true);
  });

  it("a text preset is a text logo; arbitrary pixels become fractions", () => {
    const logo = logoOfPreset(
      preset({ type: 2, text: "新华社", position: "arbitrary", x: 960, y: 540, fontSize: 40 }, null),
    );
    expect(logo).toMatchObject({ type: 2, text: "新华社", x: 0.5, y: 0.5, fontSize: 40 });
    expect(edlSchema.safeParse({ ...emptyEdl("x"), clips: [clip], logo }).success).toBe(true);
  });

  it("an image logo needs a photo story or a preset", () => {
    const logo = { type: 1 as const, position: "lower-right" as const, opacity: 100 };
    const refused = edlSchema.safeParse({ ...emptyEdl("x"), clips: [clip], logo });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.path).toEqual(["logo", "source"]);
  });
});

describe("a slide's caption by default", () => {
  it("is the caption and the credit", () => {
    expect(slideCaption({ caption: "市民在公园赏花", credit: "新华社 记者 李华 摄" })).toBe(
      "市民在公园赏花 — 新华社 记者 李华 摄",
    );
    expect(slideCaption({ caption: " 赏花 ", credit: "" })).toBe("赏花");
    expect(slideCaption({ caption: "", credit: "李华 摄" })).toBe("李华 摄");
    expect(slideCaption({ caption: "赏花（李华 摄）", credit: "李华 摄" })).toBe("赏花（李华 摄）");
    expect(slideCaption({ caption: "长".repeat(600), credit: "x" })).toHaveLength(500);
  });
});
