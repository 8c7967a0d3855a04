/**
 * Lazy page modules that fail to load, or take longer than 120 s (spec section
 * 9), reject with 'Loading chunk {name} failed'. CSS chunks are covered by
 * Vite's `vite:preloadError` event, which carries the same message.
 */

export const CHUNK_LOAD_TIMEOUT_MS = 120_000;

export class ChunkLoadError extends Error {
  constructor(
    readonly chunk: string,
    message: string,
  ) {
    super(message);
    this.name = "ChunkLoadError";
  }
}

export type ChunkMessage = (name: string) => string;

export function withChunkTimeout<T>(
  load: () => Promise<T>,
  name: string,
  message: ChunkMessage,
  timeoutMs = CHUNK_LOAD_TIMEOUT_MS,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new ChunkLoadError(name, message(name))), timeoutMs);
    load().then(
      (value) => {
        clearTimeout(timer);
        // Vite resolves a failed import with nothing once its `vite:preloadError` event is
        // cancelled (main.tsx cancels it to show the toast): that is a failed chunk too.
        if (value == null) reject(new ChunkLoadError(name, message(name)));
        else resolve(value);
      },
      () => {
        clearTimeout(timer);
        reject(new ChunkLoadError(name, message(name)));
      },
    );
  });
}

/** Names the chunk in a `vite:preloadError` event (JS or CSS) from its URL. */
export function chunkNameFromError(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const url = /(\S+\.(?:js|css))/.exec(text)?.[1];
  return url ? (url.split("/").pop() ?? url) : text;
}
