/**
 * The save's rendering in a worker, so a 24-megapixel save leaves the page
 * responsive; in place on the page where the browser has no OffscreenCanvas.
 */
import { type RenderOptions, renderFullResolution, type SaveSteps } from "./full-resolution";
import type { Operation } from "./operations";
import type { SaveRequest } from "./save-worker";

export const createSaveWorker = (): Worker =>
  new Worker(new URL("./save-worker.ts", import.meta.url), { type: "module", name: "image-editor-save" });

export function renderOffThread(
  image: Blob,
  operations: readonly Operation[],
  options: Omit<RenderOptions, "resolve">,
  createWorker: () => Worker = createSaveWorker,
): Promise<{ blob: Blob; steps: SaveSteps }> {
  if (typeof Worker === "undefined" || typeof OffscreenCanvas === "undefined") {
    return renderFullResolution(image, operations, options);
  }
  return new Promise((resolve, reject) => {
    // A worker a save: its full-size canvases go with it.
    const worker = createWorker();
    const done = () => worker.terminate();
    worker.onmessage = ({ data }: MessageEvent<{ blob: Blob; steps: SaveSteps } | { error: string }>) => {
      done();
      if ("error" in data) reject(new Error(data.error));
      else resolve(data);
    };
    worker.onerror = (event) => {
      done();
      reject(new Error(event.message || "the save worker failed"));
    };
    const request: SaveRequest = { image, operations: [...operations], ...options };
    worker.postMessage(request);
  });
}

/** "decode 310 ms, crop 120 ms, …" for the console line of a save. */
export const describeSteps = (steps: SaveSteps): string => steps.map(({ step, ms }) => `${step} ${ms} ms`).join(", ");
