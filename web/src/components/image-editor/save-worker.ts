/**
 * The save's worker: renders the operations on the full-resolution original
 * (full-resolution.ts) off the page's main thread. One message in
 * ({ image, operations, mime, quality }), one out ({ blob, steps } or
 * { error }).
 */
import { renderFullResolution } from "./full-resolution";
import type { Operation } from "./operations";

export interface SaveRequest {
  image: Blob;
  operations: Operation[];
  mime: string;
  quality: number;
}

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<SaveRequest>) => void) | null;
  postMessage: (message: unknown) => void;
};

scope.onmessage = ({ data }) => {
  renderFullResolution(data.image, data.operations, { mime: data.mime, quality: data.quality }).then(
    (result) => scope.postMessage(result),
    (error: unknown) => scope.postMessage({ error: error instanceof Error ? error.message : String(error) }),
  );
};
