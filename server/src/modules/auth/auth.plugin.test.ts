import Fastify from "fastify";
import { beforeAll, describe, expect, it } from "vitest";
import { API_PREFIX } from "../../http/error-handler.js";
import { registerRequestStart } from "../../http/request-start.js";
import { describeEachDialect, useTestApp } from "../../test/dialects.js";
import { bearer, createPrincipal, type TestPrincipal } from "../../test/principals.js";
import type { LibraryAccess } from "../access/library-access.js";
import { type AuthUsers, RouteDeclarationError, registerApiAuth } from "./auth.plugin.js";

const ME = `${API_PREFIX}/users/login/user`;

describeEachDialect("API auth hook", (dialect) => {
  const ctx = useTestApp(dialect);
  let reporter: TestPrincipal;

  beforeAll(async () => {
    reporter = await createPrincipal(ctx().db, { username: "hook-reporter" });
  });

  async function call(headers: Record<string, string> = {}, url = ME) {
    const response = await ctx().app.inject({ method: "GET", url, headers });
    return { status: response.statusCode, body: response.json(), headers: response.headers };
  }

  it("refuses a call without a token with the 401 envelope and a challenge", async () => {
    const { status, body, headers } = await call();
    expect(status).toBe(401);
    expect(body).toEqual({ code: 401, msg: expect.stringContaining("Authorization: Bearer"), error: "token_missing" });
    expect(headers["www-authenticate"]).toBe('Bearer realm="dams"');
  });

  it("refuses a malformed Authorization header", async () => {
    for (const authorization of ["Basic dXNlcjpwYXNz", "Bearer", "Bearer two words", reporter.token]) {
      const { status, body } = await call({ authorization });
      expect(status, authorization).toBe(401);
      expect(body.error).toBe("token_malformed");
    }
  });

  it("refuses unknown tokens, ours and anyone else's", async () => {
    const ours = await call(bearer(`dams_${"A".repeat(43)}`));
    expect(ours).toMatchObject({ status: 401, body: { code: 401, error: "token_invalid" } });
    const foreign = await call(bearer("eyJhbGciOiJIUzI1NiJ9.e30.c2lnbmF0dXJl"));
    expect(foreign.status).toBe(401);
    expect(Object.keys(foreign.body).sort()).toEqual(["code", "error", "msg"]);
  });

  it("refuses a token in the query string, even beside a valid header", async () => {
    for (const headers of [{}, reporter.headers]) {
      const { status, body } = await call(headers, `${ME}?access_token=${reporter.token}`);
      expect(status).toBe(401);
      expect(body).toMatchObject({ error: "token_in_query", msg: expect.stringContaining("Authorization header") });
    }
  });

  it("lets a valid token through and leaves public routes open", async () => {
    expect((await call(reporter.headers)).status).toBe(200);
    expect((await call({}, `${API_PREFIX}/system/info`)).status).toBe(200);
    expect((await call({}, `${API_PREFIX}/openapi.json`)).status).toBe(200);
  });

  it("refuses a disabled user's token, and accepts it again once enabled", async () => {
    // Through the API, as an administrator does: the hook's cached sign-ins are dropped by the change.
    const admin = await createPrincipal(ctx().db, { username: "hook-admin", admin: true });
    const setEnabled = async (action: "enable" | "disable") => {
      const url = `${API_PREFIX}/users/${reporter.id}/${action}`;
      expect((await ctx().app.inject({ method: "POST", url, headers: admin.headers })).statusCode).toBe(200);
    };
    expect((await call(reporter.headers)).status).toBe(200);
    await setEnabled("disable");
    const { status, body } = await call(reporter.headers);
    expect(status).toBe(401);
    expect(body.error).toBe("account_disabled");
    await setEnabled("enable");
    expect((await call(reporter.headers)).status).toBe(200);
  });

  it("records the last access address and time at most once a minute", async () => {
    const viewer = await createPrincipal(ctx().db, { username: "hook-viewer", roleId: "viewer" });
    const first = await ctx().app.inject({
      method: "GET",
      url: ME,
      headers: viewer.headers,
      remoteAddress: "10.0.0.7",
    });
    const recorded = first.json().data;
    expect(recorded.lastAccessIP).toBe("10.0.0.7");
    expect(Date.now() - Date.parse(recorded.lastAccessTime)).toBeLessThan(10_000);
    const second = await ctx().app.inject({
      method: "GET",
      url: ME,
      headers: viewer.headers,
      remoteAddress: "10.0.0.8",
    });
    expect(second.json().data).toMatchObject({ lastAccessIP: "10.0.0.7", lastAccessTime: recorded.lastAccessTime });
  });
});

describe("route declarations", () => {
  function appWithAuth() {
    const app = Fastify({ logger: false });
    registerApiAuth(app, {
      requestStart: registerRequestStart(app),
      prefix: API_PREFIX,
      verifiers: [],
      users: {} as AuthUsers,
      libraries: {} as LibraryAccess,
      publicPaths: [`${API_PREFIX}/openapi.json`],
    });
    return app;
  }

  async function startWith(register: (app: ReturnType<typeof appWithAuth>) => void): Promise<unknown> {
    const app = appWithAuth();
    try {
      register(app);
      await app.ready();
      return null;
    } catch (error) {
      return error;
    } finally {
      await app.close();
    }
  }

  it("stops the start-up for an API route without a declaration", async () => {
    const error = await startWith((app) => app.get(`${API_PREFIX}/forgotten`, async () => "data"));
    expect(error).toBeInstanceOf(RouteDeclarationError);
    expect(String(error)).toContain(`GET ${API_PREFIX}/forgotten: no access declared`);
  });

  it("stops the start-up for a declaration that makes no sense", async () => {
    const cases = [
      { config: { access: { permission: "story.list", action: "destroy" } } },
      { config: { access: { permission: "", action: "query" } } },
      { config: { access: "everyone" } },
      { config: { public: true, access: "authenticated" } },
      { config: { access: "authenticated", library: { param: "libraryId", level: "read" } } },
    ];
    for (const options of cases) {
      // biome-ignore lint/suspicious/noExplicitAny: deliberately ill-typed declarations
      const error = await startWith((app) => app.get(`${API_PREFIX}/x`, options as any, async () => "data"));
      expect(error, JSON.stringify(options)).toBeInstanceOf(RouteDeclarationError);
    }
  });

  it("starts with declared routes, routes outside the API and the listed public paths", async () => {
    const error = await startWith((app) => {
      app.get(`${API_PREFIX}/open`, { config: { public: true } }, async () => "data");
      app.get(`${API_PREFIX}/mine`, { config: { access: "authenticated" } }, async () => "data");
      app.get(`${API_PREFIX}/admin`, { config: { access: "admin" } }, async () => "data");
      app.get(
        `${API_PREFIX}/libraries/:libraryId`,
        {
          config: {
            access: { permission: "story.list", action: "get" },
            library: { param: "libraryId", level: "read" },
          },
        },
        async () => "data",
      );
      app.get(`${API_PREFIX}/openapi.json`, async () => "data");
      app.get("/healthz", async () => "data");
    });
    expect(error).toBeNull();
  });
});
