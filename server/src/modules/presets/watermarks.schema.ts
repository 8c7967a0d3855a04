import { z } from "zod";
import { pageQuery } from "../../http/envelope.js";
import { WATERMARK_FONTS, WATERMARK_LIMITS, WATERMARK_POSITIONS } from "../../shared/watermark.js";

const colour = z.string().regex(/^#[0-9a-fA-F]{6}$/, "a colour #rrggbb");

/**
 * The watermark settings of spec section 3, as the image editor holds them
 * and with its limits (spec section 5, server/src/shared/watermark.ts): type
 * 1 image / 2 text, position, opacity, x and y of the arbitrary position,
 * image size in percent, text, text width, font size, one of the 13 font
 * families, colour and background colour.
 */
export const watermarkSettings = z
  .object({
    type: z.union([z.literal(1), z.literal(2)]).describe("1 image, 2 text"),
    position: z.enum(WATERMARK_POSITIONS),
    opacity: z.number().int().min(WATERMARK_LIMITS.opacity.min).max(WATERMARK_LIMITS.opacity.max),
    x: z.number().int().min(0).max(100_000).describe("left edge of the box for the arbitrary position, in pixels"),
    y: z.number().int().min(0).max(100_000),
    sizePercent: z
      .number()
      .int()
      .min(WATERMARK_LIMITS.sizePercent.min)
      .max(WATERMARK_LIMITS.sizePercent.max)
      .describe("image mark: percent of the image's own size"),
    text: z
      .string()
      .refine(
        (text) => [...text].length <= WATERMARK_LIMITS.textLength,
        `watermark text may contain at most ${WATERMARK_LIMITS.textLength} characters.`,
      )
      .describe(`text mark: at most ${WATERMARK_LIMITS.textLength} characters`),
    textWidth: z.number().int().min(1).max(20_000),
    fontSize: z.number().int().min(WATERMARK_LIMITS.fontSize.min).max(WATERMARK_LIMITS.fontSize.max),
    fontFamily: z.enum(WATERMARK_FONTS),
    color: colour,
    background: colour,
  })
  .meta({ id: "WatermarkSettings" });
export type WatermarkSettings = z.infer<typeof watermarkSettings>;

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
