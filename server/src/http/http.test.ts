import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { describeEachDialect, useTestApp } from "../test/dialects.js";
import { describeError } from "./error-handler.js";
import { Conflict, Forbidden, Invalid, NotFound, statusMessages, Unauthorized } from "./errors.js";

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

  it("sets request and connection timeouts on the server", () => {
    const { app, config } = ctx();
    expect(app.server.requestTimeout).toBe(config.requestTimeoutMs);
    expect(app.initialConfig.connectionTimeout).toBe(config.requestTimeoutMs);
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
    const asset = await app.inject({ method: "GET", url: "/assets/app.js" });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers["cache-control"]).toContain("immutable");
  });

  it("keeps API, health and missing files out of the fallback", async () => {
    const { app } = ctx();
    expect((await app.inject({ method: "GET", url: "/dams/api/v1/nothing" })).json().code).toBe(404);
    expect((await app.inject({ method: "GET", url: "/assets/missing.js" })).statusCode).toBe(404);
    expect((await app.inject({ method: "POST", url: "/frontend/search" })).statusCode).toBe(404);
  });
});

function prepareWebDir(): string {
  const dir = fs.mkdtempSync(path.join(process.env.TMPDIR ?? "/tmp", "dams-web-"));
  fs.mkdirSync(path.join(dir, "assets"));
  fs.writeFileSync(path.join(dir, "index.html"), "<!doctype html><div id=root></div>");
  fs.writeFileSync(path.join(dir, "assets", "app.js"), "console.log(1)");
  return dir;
}
