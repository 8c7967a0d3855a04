import { expect, it } from "vitest";
import { describeEachDialect, useTestApp } from "../test/dialects.js";

describeEachDialect("health, readiness and metrics", (dialect) => {
  const ctx = useTestApp(dialect);

  it("is alive", async () => {
    const response = await ctx().app.inject({ method: "GET", url: "/healthz" });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: "ok" });
  });

  it("is ready when the database answers and is migrated", async () => {
    const response = await ctx().app.inject({ method: "GET", url: "/readyz" });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: "ready", database: "ok", pendingMigrations: [] });
  });

  it("counts requests by route pattern in Prometheus text", async () => {
    const { app } = ctx();
    await app.inject({ method: "GET", url: "/dams/api/v1/system/info" });
    const response = await app.inject({ method: "GET", url: "/metrics" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toContain("text/plain");
    expect(response.body).toMatch(
      /dams_http_request_duration_seconds_count\{method="GET",route="\/dams\/api\/v1\/system\/info",status="200"\} \d+/,
    );
    expect(response.body).toContain("dams_process_cpu_seconds_total");
  });
});

describeEachDialect("readiness before migrations", (dialect) => {
  const ctx = useTestApp(dialect, { migrate: false });

  it("is not ready and names the pending migrations", async () => {
    const response = await ctx().app.inject({ method: "GET", url: "/readyz" });
    expect(response.statusCode).toBe(503);
    expect(response.json().status).toBe("not_ready");
    expect(response.json().pendingMigrations).toContain("0001-users-and-menus");
  });
});

describeEachDialect("readiness without a database", (dialect) => {
  const ctx = useTestApp(dialect);

  it("is not ready when the database is gone", async () => {
    const { app, db } = ctx();
    await db.close();
    const response = await app.inject({ method: "GET", url: "/readyz" });
    expect(response.statusCode).toBe(503);
    expect(response.json().database).toBe("unreachable");
  });
});

describeEachDialect("OpenAPI", (dialect) => {
  const ctx = useTestApp(dialect);

  it("serves an OpenAPI 3.1 document of the API routes", async () => {
    const response = await ctx().app.inject({ method: "GET", url: "/dams/api/v1/openapi.json" });
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(document.openapi).toBe("3.1.0");
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining([
        "/dams/api/v1/user-menus",
        "/dams/api/v1/admin-menus",
        "/dams/api/v1/system/info",
        "/readyz",
      ]),
    );
    expect(document.components.schemas.MenuItem).toBeDefined();
    expect(document.components.schemas.ErrorEnvelope).toBeDefined();
  });

  it("serves a readable docs page", async () => {
    const response = await ctx().app.inject({ method: "GET", url: "/dams/api/v1/docs/" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toContain("text/html");
    expect(response.body).toContain("swagger");
  });
});
