import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import { MediaError } from "./media-error.js";

/**
 * HEVC-coded HEIF/HEIC (every iPhone photo since 2017) through libheif
 * compiled to WebAssembly (the npm package libheif-js, with libde265 inside).
 * sharp's prebuilt libvips has libheif with the AV1 decoder only: HEVC is
 * patent-encumbered, so sharp reads the header of a HEIC but not its pixels.
 * The WASM build runs everywhere Node does, needs no system library, and is
 * memory-safe towards the host process. libheif applies the HEIF
 * transformations (irot/imir) itself, so the pixels come out upright.
 *
 * A decode takes a second or more of CPU, so it runs in a worker thread: the
 * API served by the same process keeps answering, and a decode past its time
 * limit is stopped by terminating the thread. The worker is plain JavaScript
 * given as source, so it runs the same from TypeScript (tsx, vitest) and from
 * the compiled dist/.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { modulePath, data, maxPixels } = workerData;
try {
  const libheif = require(modulePath);
  const images = new libheif.HeifDecoder().decode(new Uint8Array(data));
  const image = images[0];
  if (!image) {
    parentPort.postMessage({ error: "corrupt", message: "the HEIF/HEIC file holds no image" });
  } else {
    const width = image.get_width();
    const height = image.get_height();
    if (width * height > maxPixels) {
      parentPort.postMessage({ error: "too_large", message: "the image is " + width + "x" + height + " pixels, more than the allowed " + maxPixels });
    } else {
      const pixels = new Uint8ClampedArray(width * height * 4);
      image.display({ data: pixels, width, height }, (result) => {
        const hasAlpha = Boolean(image.has_alpha_channel());
        for (const each of images) each.free();
        if (!result) parentPort.postMessage({ error: "corrupt", message: "the HEIF/HEIC image data could not be decoded" });
        else parentPort.postMessage({ pixels: pixels.buffer, width, height, hasAlpha }, [pixels.buffer]);
      });
    }
  }
} catch (error) {
  parentPort.postMessage({ error: "corrupt", message: "the HEIF/HEIC file could not be decoded" });
}
`;

let modulePath: string | undefined;

export interface DecodedHeif {
  /** RGBA, 8 bits per channel, row-major. */
  pixels: Buffer;
  width: number;
  height: number;
  hasAlpha: boolean;
}

type WorkerAnswer =
  | { error: "corrupt" | "too_large"; message: string }
  | { pixels: ArrayBuffer; width: number; height: number; hasAlpha: boolean };

/** Decodes the primary image in a worker thread. The caller checks the pixel limit from the header first. */
export function decodeHeif(data: Buffer, maxPixels: number, timeoutMs = 120_000): Promise<DecodedHeif> {
  modulePath ??= createRequire(import.meta.url).resolve("libheif-js/wasm-bundle");
  const copy = data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength);
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { modulePath, data: copy, maxPixels },
      transferList: [copy as ArrayBuffer],
    });
    let settled = false;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      outcome();
    };
    const timer = setTimeout(
      () => finish(() => reject(new MediaError("timeout", "decoding the HEIF/HEIC image took longer than allowed"))),
      timeoutMs,
    );
    worker.once("message", (answer: WorkerAnswer) =>
      finish(() => {
        if ("error" in answer) reject(new MediaError(answer.error, answer.message));
        else
          resolve({
            pixels: Buffer.from(answer.pixels),
            width: answer.width,
            height: answer.height,
            hasAlpha: answer.hasAlpha,
          });
      }),
    );
    worker.once("error", (error) =>
      finish(() => reject(new MediaError("corrupt", "the HEIF/HEIC file could not be decoded", { cause: error }))),
    );
    worker.once("exit", () =>
      finish(() => reject(new MediaError("corrupt", "the HEIF/HEIC decoder stopped without an image"))),
    );
  });
}
