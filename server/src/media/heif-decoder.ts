import { createRequire } from "node:module";
import { MediaError } from "./media-error.js";

/**
 * HEVC-coded HEIF/HEIC (every iPhone photo since 2017) through libheif
 * compiled to WebAssembly (the npm package libheif-js, with libde265 inside).
 * sharp's prebuilt libvips has libheif with the AV1 decoder only: HEVC is
 * patent-encumbered, so sharp reads the header of a HEIC but not its pixels.
 * The WASM build runs everywhere Node does, needs no system library, and is
 * memory-safe towards the host process. libheif applies the HEIF
 * transformations (irot/imir) itself, so the pixels come out upright.
 */
interface HeifImage {
  get_width(): number;
  get_height(): number;
  has_alpha_channel(): boolean;
  display(target: { data: Uint8ClampedArray; width: number; height: number }, done: (result: unknown) => void): void;
  free(): void;
}
interface LibHeif {
  HeifDecoder: new () => { decode(data: Uint8Array): HeifImage[] };
}

let libheif: LibHeif | undefined;
function load(): LibHeif {
  libheif ??= createRequire(import.meta.url)("libheif-js/wasm-bundle") as LibHeif;
  return libheif;
}

export interface DecodedHeif {
  /** RGBA, 8 bits per channel, row-major. */
  pixels: Buffer;
  width: number;
  height: number;
  hasAlpha: boolean;
}

/** Decodes the primary image. The caller checks the pixel limit from the header first. */
export async function decodeHeif(data: Buffer, maxPixels: number): Promise<DecodedHeif> {
  let images: HeifImage[];
  try {
    images = new (load().HeifDecoder)().decode(data);
  } catch (error) {
    throw new MediaError("corrupt", "the HEIF/HEIC file could not be decoded", { cause: error });
  }
  try {
    const image = images[0];
    if (!image) throw new MediaError("corrupt", "the HEIF/HEIC file holds no image");
    const width = image.get_width();
    const height = image.get_height();
    if (width * height > maxPixels)
      throw new MediaError("too_large", `the image is ${width}x${height} pixels, more than the allowed ${maxPixels}`);
    const pixels = new Uint8ClampedArray(width * height * 4);
    const ok = await new Promise<boolean>((resolve) => {
      image.display({ data: pixels, width, height }, (result) => resolve(Boolean(result)));
    });
    if (!ok) throw new MediaError("corrupt", "the HEIF/HEIC image data could not be decoded");
    return {
      pixels: Buffer.from(pixels.buffer, pixels.byteOffset, pixels.byteLength),
      width,
      height,
      hasAlpha: image.has_alpha_channel(),
    };
  } finally {
    for (const image of images) image.free();
  }
}
