import { createHash } from "node:crypto";
import net from "node:net";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { describeEachDialect, useTestApp } from "../test/dialects.js";
import { describeError } from "./error-handler.js";
import { Conflict, Forbidden, Invalid, NotFound, statusMessages, Unauthorized } from "./errors.js";
import { APP_JS, APP_JS_URL, INDEX_HTML, prepareWebDir } from "./spa.test-support.js";

const echoBody = z.object({ name: z.string().min(1), count: z.number().int().max(10) });

describeEachDialect("HTTP conventions", (dialect) => {
  const ctx = useTestApp(dialect, {
    env: { DAMS_BODY_LIMIT: "1024" },
    prepare(app) {
      // Routes that exist only to drive the shared error handling from outside.
      app.post("/dams/api/v1/test/echo", { config: { public: true }, schema: { body: echoBody } }, async (request) => ({
        code: 0,
        msg: "ok",
        data: request.body,
      }));
      app.get("/dams/api/v1/test/forbidden", { config: { public: true } }, async () => {
        throw new Forbidden();
      });
      app.get("/dams/api/v1/test/crash", { config: { public: true } }, async () => {
        throw new Error("secret internal detail");
      });
    },
  });

  it("wraps success in the envelope", async () => {
    const response = await ctx().app.inject({ method: "GET", url: "/dams/api/v1/system/info" });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ code: 0, msg: "ok", data: { name: "dams", version: expect.any(String) } });
  });

  it("answers an unknown API path with the 404 envelope", async () => {
    const response = await ctx().app.inject({ method: "GET", url: "/dams/api/v1/no-such-thing" });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ code: 404, msg: "request error, resource not found", error: "not_found" });
  });

  it("answers a known path with a wrong method with 405 and Allow", async () => {
    const response = await ctx().app.inject({ method: "DELETE", url: "/dams/api/v1/user-menus" });
    expect(response.statusCode).toBe(405);
    expect(response.headers.allow).toContain("GET");
    expect(response.json()).toMatchObject({ code: 405, msg: "request method not allowed" });
  });

  it("names the problem in malformed JSON", async () => {
    const response = await ctx().app.inject({
      method: "POST",
      url: "/dams/api/v1/test/echo",
      headers: { "content-type": "application/json" },
      payload: '{"name": "x",',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 400, error: "invalid_json" });
    expect(response.json().msg).toMatch(/^request body is not valid JSON: /);
  });

  it("refuses a JSON body that is not UTF-8, or holds half a surrogate pair, with 400", async () => {
    const post = (payload: Buffer | string) =>
      ctx().app.inject({
        method: "POST",
        url: "/dams/api/v1/test/echo",
        headers: { "content-type": "application/json; charset=utf-8" },
        payload,
      });
    const invalid = [
      Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xff, 0xfe, 0xc0, 0xaf]), Buffer.from('","count":1}')]),
      // GB 18030 bytes sent as if they were UTF-8.
      Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xcc, 0xa8, 0xb7, 0xe7]), Buffer.from('","count":1}')]),
      // A truncated three-byte sequence at the end of a string.
      Buffer.concat([Buffer.from('{"name":"台'), Buffer.from([0xe9, 0xa3]), Buffer.from('","count":1}')]),
      '{"name":"\\ud800x","count":1}',
      '{"\\udfff":"x","name":"a","count":1}',
    ];
    for (const payload of invalid) {
      const response = await post(payload);
      expect(response.statusCode, String(payload)).toBe(400);
      expect(response.json()).toMatchObject({ code: 400, error: "invalid_utf8" });
    }
    // Valid UTF-8, a BOM, and an escaped pair that makes one character are accepted.
    for (const payload of [
      '{"name":"台风","count":1}',
      '\ufeff{"name":"台风","count":1}',
      '{"name":"\\ud83d\\ude00","count":1}',
    ]) {
      const response = await post(payload);
      expect(response.statusCode, payload).toBe(200);
    }
    expect((await post('{"name":"\\ud83d\\ude00","count":1}')).json().data.name).toBe("😀");
    // The product's own routes parse with it too (the sign-in pages' JSON endpoints sit outside the API prefix).
    const register = await ctx().app.inject({
      method: "POST",
      url: "/uuas/register",
      headers: { "content-type": "application/json" },
      payload: Buffer.concat([Buffer.from('{"username":"'), Buffer.from([0xff, 0xff]), Buffer.from('x"}')]),
    });
    expect(register.json()).toMatchObject({ code: 400, error: "invalid_utf8" });
  });

  it("names the failing fields of a validation error", async () => {
    const response = await ctx().app.inject({
      method: "POST",
      url: "/dams/api/v1/test/echo",
      payload: { name: "", count: 11 },
    });
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body.error).toBe("validation_failed");
    expect(body.msg).toContain("body.name");
    expect(body.msg).toContain("body.count");
  });

  it("accepts a valid body", async () => {
    const response = await ctx().app.inject({
      method: "POST",
      url: "/dams/api/v1/test/echo",
      payload: { name: "台风", count: 3 },
    });
    expect(response.json()).toEqual({ code: 0, msg: "ok", data: { name: "台风", count: 3 } });
  });

  it("refuses a body over the limit with 413", async () => {
    const response = await ctx().app.inject({
      method: "POST",
      url: "/dams/api/v1/test/echo",
      payload: { name: "x".repeat(2000), count: 1 },
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ code: 413, error: "payload_too_large" });
  });

  it("maps a domain error to its status and the catalogue message", async () => {
    const response = await ctx().app.inject({ method: "GET", url: "/dams/api/v1/test/forbidden" });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ code: 403, msg: "access denied", error: "forbidden" });
  });

  it("hides internal details of a server error", async () => {
    const response = await ctx().app.inject({ method: "GET", url: "/dams/api/v1/test/crash" });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ code: 500, msg: "server error", error: "server_error" });
    expect(response.body).not.toContain("secret");
  });

  it("sends security headers and a CSP on every response, errors included", async () => {
    // user-menus without a token: the 401 of the auth hook carries them too.
    for (const url of [
      "/dams/api/v1/system/info",
      "/dams/api/v1/no-such-thing",
      "/healthz",
      "/dams/api/v1/user-menus",
    ]) {
      const response = await ctx().app.inject({ method: "GET", url });
      expect(response.headers["content-security-policy"]).toContain("default-src 'self'");
      expect(response.headers["content-security-policy"]).toContain("object-src 'none'");
      expect(response.headers["x-content-type-options"]).toBe("nosniff");
      expect(response.headers["x-frame-options"]).toBe("SAMEORIGIN");
    }
  });

  it("answers a path parameter over the limit (414) and a path that is not UTF-8 (400) in the envelope, with the headers", async () => {
    const long = "a".repeat(600);
    const tooLong = await ctx().app.inject({ method: "GET", url: `/dams/api/v1/stories/product/${long}` });
    expect(tooLong.statusCode).toBe(414);
    expect(tooLong.json()).toEqual({
      code: 414,
      msg: "request URI too long: a path parameter holds at most 500 characters",
      error: "uri_too_long",
    });
    expect(tooLong.body).not.toContain("aaaa");
    const badUrl = await ctx().app.inject({ method: "GET", url: "/uuas/interaction/%ff" });
    expect(badUrl.statusCode).toBe(400);
    expect(badUrl.json()).toMatchObject({ code: 400, error: "bad_url" });
    for (const response of [tooLong, badUrl]) {
      expect(response.headers["content-type"]).toBe("application/json; charset=utf-8");
      expect(response.headers["content-security-policy"]).toContain("default-src 'self'");
      expect(response.headers["x-frame-options"]).toBe("SAMEORIGIN");
    }
  });

  it("answers requests Node cannot parse (431, 400) on the socket in the envelope, with the headers", async () => {
    const { app } = ctx();
    const address = await app.listen({ port: 0, host: "127.0.0.1" });
    const { port } = new URL(address);
    const cases = [
      [431, `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`],
      [400, "NOT HTTP AT ALL\r\n\r\n"],
    ] as const;
    for (const [status, request] of cases) {
      const answer = await rawExchange(Number(port), request);
      const [head = "", body = ""] = answer.split("\r\n\r\n");
      expect(head.split("\r\n")[0]).toMatch(new RegExp(`^HTTP/1.1 ${status} `));
      expect(head).toContain("content-security-policy: default-src 'self'");
      expect(head).toContain("x-content-type-options: nosniff");
      expect(head).toContain("content-type: application/json; charset=utf-8");
      expect(JSON.parse(body)).toMatchObject({ code: status, msg: expect.any(String), error: expect.any(String) });
    }
  });

  it("gives the sign-in server's answers the envelope and a CSP; its inline script runs by its hash", async () => {
    const { app } = ctx();
    const unknown = await app.inject({ method: "GET", url: "/uuas/interaction/garbage/login" });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ code: 404, msg: "request error, resource not found", error: "not_found" });
    const protocol = await app.inject({ method: "GET", url: "/uuas/auth" });
    expect(protocol.statusCode).toBe(400);
    // The OAuth fields stay for OAuth clients; the envelope's come with them.
    expect(protocol.json()).toMatchObject({ code: 400, msg: expect.any(String), error: "invalid_request" });
    expect(protocol.json().error_description).toBe(protocol.json().msg);
    for (const response of [unknown, protocol]) {
      expect(response.headers["content-security-policy"]).toContain("script-src 'self'");
      expect(response.headers["x-content-type-options"]).toBe("nosniff");
    }
    const logout = await app.inject({ method: "GET", url: "/uuas/session/end" });
    expect(logout.statusCode).toBe(200);
    const script = /<script>([\s\S]*?)<\/script>/.exec(logout.body)?.[1];
    expect(script).toBeTruthy();
    const hash = createHash("sha256").update(script!).digest("base64");
    const policy = String(logout.headers["content-security-policy"]);
    expect(policy).toMatch(new RegExp(`script-src 'self' 'sha256-${hash.replace(/[+/=]/g, "\\$&")}'`));
    expect(/script-src[^;]*/.exec(policy)?.[0]).not.toContain("unsafe-inline");
    expect(policy).toMatch(/form-action 'self'/);
  });

  it("sets the connection timeout on the server; the body deadline is its own (upload-deadline.test.ts)", () => {
    const { app, config } = ctx();
    expect(app.server.requestTimeout).toBe(0);
    expect(app.initialConfig.connectionTimeout).toBe(config.requestTimeoutMs);
  });
});

describe("while the server closes", () => {
  let release: (() => void) | undefined;
  const ctx = useTestApp("sqlite", {
    prepare(app) {
      // Something that takes its time to stop (the job workers do, up to DAMS_JOBS_STOP_TIMEOUT_MS).
      app.addHook("preClose", async () => {
        await new Promise<void>((resolve) => {
          release = resolve;
        });
      });
    },
  });

  it("answers a request that arrives meanwhile with 503 in the envelope, with the headers", async () => {
    const { app } = ctx();
    const address = await app.listen({ port: 0, host: "127.0.0.1" });
    const closing = app.close();
    await vi.waitFor(() => expect(release).toBeDefined(), { timeout: 20_000 });
    const response = await fetch(`${address}/healthz`);
    release!();
    await closing;
    expect(response.status).toBe(503);
    expect(response.headers.get("content-security-policy")).toContain("default-src 'self'");
    expect(response.headers.get("connection")).toBe("close");
    expect(await response.json()).toEqual({ code: 503, msg: "service unavailable", error: "service_unavailable" });
  });
});

describe("describeError", () => {
  it.each([
    [new Invalid("title is required"), 400, "title is required"],
    [new Unauthorized(), 401, "Unauthorized"],
    [new Forbidden(), 403, "access denied"],
    [new NotFound(), 404, "request error, resource not found"],
    [new Conflict("already exists"), 409, "already exists"],
  ])("maps %s", (error, status, msg) => {
    expect(describeError(error)).toMatchObject({ status, msg });
  });

  it.each([408, 500, 501, 502, 503, 504, 505])(
    "uses the catalogue message for a framework error with status %i",
    (status) => {
      const error = Object.assign(new Error("internal words"), { statusCode: status });
      expect(describeError(error).status).toBe(status);
      if (status >= 500) expect(describeError(error).msg).toBe(statusMessages[status]);
    },
  );
});

describeEachDialect("history fallback for the web app", (dialect) => {
  const ctx = useTestApp(dialect, {
    env: { DAMS_WEB_DIR: prepareWebDir() },
  });

  it("serves index.html for client-side routes and files as they are", async () => {
    const { app } = ctx();
    for (const url of ["/", "/frontend/search?fulltext=台风", "/manage/setting/tag", "/404"]) {
      const response = await app.inject({ method: "GET", url: encodeURI(url) });
      expect(response.statusCode, url).toBe(200);
      expect(response.body).toContain("<div id=root>");
      expect(response.headers["cache-control"]).toBe("no-cache");
    }
    const asset = await app.inject({ method: "GET", url: APP_JS_URL });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers["cache-control"]).toContain("immutable");
  });

  it("sends the build's brotli or gzip copy as Accept-Encoding prefers, the file itself otherwise", async () => {
    const { app } = ctx();
    const cases = [
      { accept: "gzip, deflate, br, zstd", encoding: "br", decode: brotliDecompressSync },
      { accept: "gzip;q=1, br;q=0.5", encoding: "gzip", decode: gunzipSync },
      { accept: "gzip", encoding: "gzip", decode: gunzipSync },
      { accept: "identity", encoding: undefined, decode: (bytes: Buffer) => bytes },
    ];
    for (const { accept, encoding, decode } of cases) {
      const asset = await app.inject({ method: "GET", url: APP_JS_URL, headers: { "accept-encoding": accept } });
      expect(asset.statusCode, accept).toBe(200);
      expect(asset.headers["content-encoding"], accept).toBe(encoding);
      expect(asset.headers["content-type"], accept).toMatch(/javascript/);
      expect(asset.headers.vary, accept).toMatch(/accept-encoding/i);
      expect(asset.headers["cache-control"], accept).toBe("public, max-age=31536000, immutable");
      expect(decode(asset.rawPayload).toString(), accept).toBe(APP_JS);
    }
    const page = await app.inject({ method: "GET", url: "/frontend/search", headers: { "accept-encoding": "br" } });
    expect(page.headers["content-encoding"]).toBe("br");
    expect(page.headers["cache-control"]).toBe("no-cache");
    expect(brotliDecompressSync(page.rawPayload).toString()).toBe(INDEX_HTML);
  });

  it("keeps API, health and missing files out of the fallback", async () => {
    const { app } = ctx();
    expect((await app.inject({ method: "GET", url: "/dams/api/v1/nothing" })).json().code).toBe(404);
    expect((await app.inject({ method: "GET", url: "/assets/missing.js" })).statusCode).toBe(404);
    expect((await app.inject({ method: "POST", url: "/frontend/search" })).statusCode).toBe(404);
  });
});

/** Writes raw bytes to the server and reads what it answers until it closes the connection. */
function rawExchange(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => socket.end(request));
    const chunks: Buffer[] = [];
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("close", () => resolve(Buffer.concat(chunks).toString("utf8")));
    socket.on("error", (error: NodeJS.ErrnoException) => {
      // The server may reset the connection after answering an oversized request.
      if (error.code === "ECONNRESET" || error.code === "EPIPE") return;
      reject(error);
    });
  });
}
