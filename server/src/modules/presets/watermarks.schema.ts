import { z } from "zod";
import { pageQuery } from "../../http/envelope.js";
import { WATERMARK_FONTS, WATERMARK_POSITIONS } from "../../media/index.js";

const colour = z.string().regex(/^#[0-9a-fA-F]{6}$/, "a colour #rrggbb");

/**
 * The watermark settings of spec section 3, as the image editor holds them
 * (web/src/components/image-editor/params.ts) and with its limits (spec
 * section 5): type 1 image / 2 text, position, opacity 1-100, x and y of the
 * arbitrary position, image size 1-100 %, text of at most 100 characters,
 * text width, font size 1-1000, one of the 13 font families, colour and
 * background colour.
 */
export const watermarkSettings = z
  .object({
    type: z.union([z.literal(1), z.literal(2)]).describe("1 image, 2 text"),
    position: z.enum(WATERMARK_POSITIONS),
    opacity: z.number().int().min(1).max(100),
    x: z.number().int().min(0).max(100_000).describe("left edge of the box for the arbitrary position, in pixels"),
    y: z.number().int().min(0).max(100_000),
    sizePercent: z.number().int().min(1).max(100).describe("image mark: percent of the image's own size"),
    text: z
      .string()
      .refine((text) => [...text].length <= 100, "watermark text may contain at most 100 characters.")
      .describe("text mark: at most 100 characters"),
    textWidth: z.number().int().min(1).max(20_000),
    fontSize: z.number().int().min(1).max(1000),
    fontFamily: z.enum(WATERMARK_FONTS),
    color: colour,
    background: colour,
  })
  .meta({ id: "WatermarkSettings" });
export type WatermarkSettings = z.infer<typeof watermarkSettings>;

/** Spec section 9: image type, lower-right, opacity 100, size 100, 30 px white text on black, the first font. */
export const DEFAULT_WATERMARK: WatermarkSettings = {
  type: 1,
  position: "lower-right",
  opacity: 100,
  x: 0,
  y: 0,
  sizePercent: 100,
  text: "",
  textWidth: 300,
  fontSize: 30,
  fontFamily: WATERMARK_FONTS[0],
  color: "#ffffff",
  background: "#000000",
};

/** The image of an image mark, base64 (a data URL's part after the comma); PNG or JPEG, at most 2 MB. */
export const watermarkImage = z.object({
  data: z.string().max(2_800_000).describe("base64 of the PNG or JPEG (at most 2 MB)"),
  type: z.enum(["image/png", "image/jpeg"]),
});

export const watermarkPresetBody = z.object({
  name: z.string().trim().min(1).max(100),
  settings: watermarkSettings,
  image: watermarkImage.nullable().optional().describe("absent: keep the stored image; null: remove it"),
});
export type WatermarkPresetInput = z.infer<typeof watermarkPresetBody>;

export const watermarkPreviewBody = z.object({
  settings: watermarkSettings,
  image: watermarkImage.nullable().optional(),
  presetId: z.uuid().optional().describe("use this preset's stored image when `image` is absent"),
});

export const watermarkPresetSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    settings: watermarkSettings,
    image: z
      .object({ type: z.string(), width: z.number().int(), height: z.number().int() })
      .nullable()
      .describe("the image mark's type and size; GET …/image for its bytes"),
    revision: z.number().int(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "WatermarkPreset" });
export type WatermarkPresetView = z.infer<typeof watermarkPresetSchema>;

export const presetIdParams = z.object({ presetId: z.uuid() });
export const presetListQuery = pageQuery;
