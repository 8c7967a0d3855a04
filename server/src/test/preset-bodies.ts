/**
 * Request bodies for the preset routes, as the tests send them: a text watermark and a JPEG photo download preset.
 * The values are written out here, not taken from the server's defaults, so a changed default shows in the tests.
 */

/** A text watermark's settings (type 2): 30 px white text on black in the lower right, 300 px wide. */
export function textWatermark(text: string, fontFamily = "Microsoft YaHei") {
  return {
    type: 2,
    position: "lower-right",
    opacity: 100,
    x: 0,
    y: 0,
    sizePercent: 100,
    text,
    textWidth: 300,
    fontSize: 30,
    fontFamily,
    color: "#ffffff",
    background: "#000000",
  } as const;
}

/** POST/PUT /download-presets: a photo preset rendering JPEG (quality 80, rights metadata unless `settings` says). */
export function jpegPhotoPreset(name: string, settings: Record<string, unknown>, roleIds: string[] = []) {
  return {
    name,
    storyType: "photo",
    settings: {
      format: "jpeg",
      maxWidth: 1200,
      maxHeight: null,
      quality: 80,
      srgb: true,
      metadata: "rights",
      videoBitrateKbps: 2000,
      audioBitrateKbps: 128,
      ...settings,
    },
    watermarkPresetId: null,
    roleIds,
    enabled: true,
  };
}
