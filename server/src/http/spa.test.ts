import fs from "node:fs";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import Fastify, { type FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cacheControlOf, registerSpa, spaFallback } from "./spa.js";
import { APP_JS, APP_JS_URL, INDEX_HTML, prepareWebDir } from "./spa.test-support.js";

/**
 * The built web app's files as the browser gets them: the build's brotli or
 * gzip copy by Accept-Encoding, conditional requests and ranges on the copy
 * that is sent. No database: the SPA's registration on a bare Fastify.
 * (http.test.ts checks the same registration inside the whole app.)
 */
describe("the web app's static files", () => {
  let webDir: string;
  let app: FastifyInstance;
  beforeAll(async () => {
    webDir = prepareWebDir();
    app = Fastify();
    expect(await registerSpa(app, webDir)).toBe(true);
    app.setNotFoundHandler((request, reply) => {
      if (!spaFallback(request, reply)) reply.code(404).send({ code: 404 });
    });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    fs.rmSync(webDir, { recursive: true, force: true });
  });

  const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: "GET", url, headers });
  const copy = (name: string) => fs.readFileSync(path.join(webDir, name));

  it("chooses by Accept-Encoding and its q-values: brotli, gzip or the file itself", async () => {
    const cases = [
      { accept: "gzip, deflate, br, zstd", encoding: "br" }, // Chromium's
      { accept: "br;q=0, gzip", encoding: "gzip" },
      { accept: "br;q=0.2, gzip;q=0.8", encoding: "gzip" },
      { accept: "deflate, gzip;q=1.0, *;q=0.5", encoding: "gzip" },
      { accept: "deflate", encoding: undefined },
      { accept: "", encoding: undefined },
    ];
    for (const { accept, encoding } of cases) {
      const response = await get(APP_JS_URL, accept ? { "accept-encoding": accept } : {});
      expect(response.statusCode, accept).toBe(200);
      expect(response.headers["content-encoding"], accept).toBe(encoding);
      expect(response.headers["content-type"], accept).toBe("application/javascript; charset=utf-8");
      expect(response.headers.vary, accept).toMatch(/accept-encoding/i);
      const body = response.rawPayload;
      const decoded = encoding === "br" ? brotliDecompressSync(body) : encoding === "gzip" ? gunzipSync(body) : body;
      expect(decoded.toString(), accept).toBe(APP_JS);
      expect(Number(response.headers["content-length"]), accept).toBe(body.length);
    }
  });

  it("answers 304 to the ETag of the copy it would send, not to another encoding's", async () => {
    const br = await get(APP_JS_URL, { "accept-encoding": "br" });
    const gzip = await get(APP_JS_URL, { "accept-encoding": "gzip" });
    const plain = await get(APP_JS_URL);
    const etags = [br, gzip, plain].map((response) => response.headers.etag);
    expect(new Set(etags).size, "one ETag per encoding").toBe(3);

    const revalidated = await get(APP_JS_URL, { "accept-encoding": "br", "if-none-match": String(br.headers.etag) });
    expect(revalidated.statusCode).toBe(304);
    expect(revalidated.rawPayload.length).toBe(0);
    expect(revalidated.headers.etag).toBe(br.headers.etag);
    expect(revalidated.headers.vary).toMatch(/accept-encoding/i);
    expect(revalidated.headers["cache-control"]).toBe("public, max-age=31536000, immutable");

    // A client that now takes gzip only must get gzip's bytes, not a 304 for the brotli it holds.
    const other = await get(APP_JS_URL, { "accept-encoding": "gzip", "if-none-match": String(br.headers.etag) });
    expect(other.statusCode).toBe(200);
    expect(gunzipSync(other.rawPayload).toString()).toBe(APP_JS);
    const none = await get(APP_JS_URL, { "if-none-match": String(gzip.headers.etag) });
    expect(none.statusCode).toBe(200);
    expect(none.body).toBe(APP_JS);

    const page = await get("/frontend/search", { "accept-encoding": "br" });
    const again = await get("/frontend/search", {
      "accept-encoding": "br",
      "if-none-match": String(page.headers.etag),
    });
    expect(again.statusCode).toBe(304);
    expect(again.headers["cache-control"]).toBe("no-cache");
  });

  it("serves a range of the representation it sends: the compressed copy's bytes, with its length", async () => {
    const br = await get(APP_JS_URL, { "accept-encoding": "br", range: "bytes=0-9" });
    const brBytes = copy(`${APP_JS_URL.slice(1)}.br`);
    expect(br.statusCode).toBe(206);
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers["content-range"]).toBe(`bytes 0-9/${brBytes.length}`);
    expect(br.rawPayload.equals(brBytes.subarray(0, 10))).toBe(true);

    const plain = await get(APP_JS_URL, { range: "bytes=100-199" });
    expect(plain.statusCode).toBe(206);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.headers["content-range"]).toBe(`bytes 100-199/${APP_JS.length}`);
    expect(plain.body).toBe(APP_JS.slice(100, 200));
  });

  it("caches hashed assets for a year and revalidates everything else", async () => {
    const cases = [
      { url: APP_JS_URL, cache: "public, max-age=31536000, immutable" },
      { url: "/assets/logo.svg", cache: "no-cache" }, // copied from web/public: no hash in its name
      { url: "/index.html", cache: "no-cache" },
      { url: "/", cache: "no-cache" },
      { url: "/manage/setting/tag", cache: "no-cache" },
    ];
    for (const { url, cache } of cases) {
      const response = await get(url, { "accept-encoding": "gzip, br" });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers["cache-control"], url).toBe(cache);
    }
    const page = await get("/manage/setting/tag", { "accept-encoding": "gzip" });
    expect(page.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(gunzipSync(page.rawPayload).toString()).toBe(INDEX_HTML);
    // The SVG has no compressed copy: sent as it is, whatever the browser accepts.
    expect((await get("/assets/logo.svg", { "accept-encoding": "br" })).headers["content-encoding"]).toBeUndefined();
  });

  it.each([
    ["assets/index-BVhH2_xk.js", true],
    ["assets/zh-CN-a1B2-c3D.js", true],
    ["assets/logo.svg", false],
    ["assets/app.js", false],
    ["index.html", false],
    ["favicon-12345678.ico", false],
  ])("cache-control of %s is immutable: %s", (file, immutable) => {
    expect(cacheControlOf(path.join("/srv/web", file)) === "public, max-age=31536000, immutable").toBe(immutable);
  });
});
