import fs from "node:fs";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";

/** The web build writes `.br` and `.gz` copies beside these (web/vite-plugins/precompress.ts). */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|xml|wasm|map)$/i;
/**
 * What Vite names a built file, `assets/<name>-<hash>.<ext>` (8 characters of
 * base64url): new content, new name, so it may be cached for good. Anything
 * else (index.html, files copied from web/public) is revalidated.
 */
const HASHED_ASSET = /(?:^|[\\/])assets[\\/][^\\/]+-[\w-]{8}\.[a-z0-9]+$/i;

/** The Cache-Control of a file the build left in the web directory (its path, without `.br`/`.gz`). */
export function cacheControlOf(filePath: string): string {
  return HASHED_ASSET.test(filePath) ? "public, max-age=31536000, immutable" : "no-cache";
}

/**
 * Serves the built web app at `/`. Paths that are not files and not API
 * calls get index.html, so client-side routes survive a reload. Text files
 * go out compressed as the build left them (brotli or gzip, whichever the
 * browser's Accept-Encoding prefers; as they are when it accepts neither):
 * nothing is compressed per request. Hashed assets are cached for a year.
 */
export async function registerSpa(app: FastifyInstance, webDir: string): Promise<boolean> {
  const indexFile = path.join(webDir, "index.html");
  if (!fs.existsSync(indexFile)) {
    app.log.warn({ webDir }, "web app not built; serving the API only");
    return false;
  }
  await app.register(fastifyStatic, {
    root: webDir,
    wildcard: false,
    index: false,
    cacheControl: false,
    preCompressed: true,
    setHeaders(response, filePath) {
      // `filePath` is the file sent: `app-1a2b3c4d.js.br` when the brotli copy goes out.
      const original = filePath.replace(/\.(?:br|gz)$/, "");
      // Hashed assets never change; index.html must always be revalidated.
      response.setHeader("cache-control", cacheControlOf(original));
      // The same URL has other bytes for another Accept-Encoding: caches must keep them apart.
      if (COMPRESSIBLE.test(original)) response.setHeader("vary", "accept-encoding");
    },
  });
  return true;
}

export function isSpaNavigation(url: string, method: string): boolean {
  if (method !== "GET" && method !== "HEAD") return false;
  const pathname = url.split("?")[0] ?? "";
  const reserved = ["/dams/", "/uuas/", "/metrics", "/healthz", "/readyz"];
  return !reserved.some((prefix) => pathname === prefix.replace(/\/$/, "") || pathname.startsWith(prefix));
}

/** History fallback: a client-side route (no file extension) gets index.html. */
export function spaFallback(
  request: { url: string; method: string },
  reply: { sendFile(file: string): unknown; header(name: string, value: string): unknown },
): boolean {
  if (!isSpaNavigation(request.url, request.method)) return false;
  const pathname = request.url.split("?")[0] ?? "";
  if (path.posix.extname(pathname) !== "") return false;
  reply.header("cache-control", "no-cache");
  reply.sendFile("index.html");
  return true;
}
