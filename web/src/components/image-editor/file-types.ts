/**
 * The image files the editor's pickers accept (spec section 5). Apart from the
 * other rules: the header's image-edit upload, on every page, needs only these.
 */

/** The header's image-edit upload. */
export const HEADER_UPLOAD_EXTENSIONS = ["jpg", "jpeg", "png", "bmp"] as const;
/** Picking another image inside the editor. */
export const PICK_IMAGE_EXTENSIONS = ["jpg", "jpeg", "png", "bmp", "webp", "gif"] as const;
/** The watermark image. */
export const WATERMARK_IMAGE_EXTENSIONS = ["jpeg", "jpg", "png"] as const;

export const acceptAttribute = (extensions: readonly string[]): string => extensions.map((ext) => `.${ext}`).join(",");

export function extensionOf(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot < 0 ? "" : name.slice(dot + 1).toLowerCase();
}

/** An image file of one of the listed extensions; anything else earns the warning 'please select an image file.'. */
export function isAcceptedImage(file: { name: string; type: string }, extensions: readonly string[]): boolean {
  return file.type.startsWith("image/") && extensions.includes(extensionOf(file.name));
}
