import { type ImageSafetyOptions, openImage } from "./images.js";
import { hashOfImage } from "./phash.js";

export { hammingDistance } from "./phash.js";

/**
 * The perceptual hash of an image file (phash.ts), upright. The photo job
 * takes it from the decoded preview instead (renderImageDerivatives), which
 * spares a second decode of the original.
 */
export async function perceptualHash(file: string, options: ImageSafetyOptions = {}): Promise<string> {
  return hashOfImage((await openImage(file, options)).pipeline);
}
