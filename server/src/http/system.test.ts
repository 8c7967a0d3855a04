import { Migrator } from "kysely";
import { expect, it } from "vitest";
import { DamsMigrationProvider } from "../db/migrations/index.js";
import { describeEachDialect, useTestApp } from "../test/dialects.js";
import { createPrincipal } from "../test/principals.js";

const SCRAPER_TOKEN = "metrics-scraper-token-0123456789";

describeEachDialect("health, readiness and metrics", (dialect) => {
  const ctx = useTestApp(dialect, { env: { DAMS_METRICS_TOKEN: SCRAPER_TOKEN } });

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
    const response = await app.inject({
      method: "GET",
      url: "/metrics",
      headers: { authorization: `Bearer ${SCRAPER_TOKEN}` },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toContain("text/plain");
    expect(response.body).toMatch(
      /dams_http_request_duration_seconds_count\{method="GET",route="\/dams\/api\/v1\/system\/info",status="200"\} \d+/,
    );
    expect(response.body).toContain("dams_process_cpu_seconds_total");
  });

  it("answers /metrics only to the scraper's token or a monitor reader", async () => {
    const { app, db } = ctx();
    const metrics = (authorization?: string) =>
      app.inject({ method: "GET", url: "/metrics", headers: authorization ? { authorization } : {} });
    const anonymous = await metrics();
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.body).not.toContain("dams_");
    expect((await metrics(`Bearer ${SCRAPER_TOKEN}x`)).statusCode).toBe(401);
    expect((await metrics(SCRAPER_TOKEN)).statusCode).toBe(401);
    const contributor = await createPrincipal(db, { username: "metrics-contributor", roleId: "contributor" });
    expect((await metrics(contributor.headers.authorization)).statusCode).toBe(401);
    const editor = await createPrincipal(db, { username: "metrics-editor", roleId: "editor" });
    const read = await metrics(editor.headers.authorization);
    expect(read.statusCode).toBe(200);
    expect(read.body).toContain("dams_process_cpu_seconds_total");
  });
});

describeEachDialect("readiness with a migration pending", (dialect) => {
  // The app needs the database migrated far enough to read its shared keys (dams serve and dams worker
  // migrate before they build it); a node running an older schema than its code is the case to report.
  const ctx = useTestApp(dialect);

  it("is not ready and names the pending migrations", async () => {
    const { app, db } = ctx();
    const migrator = new Migrator({ db: db.kysely, provider: new DamsMigrationProvider(db.adapter) });
    const down = await migrator.migrateDown();
    expect(down.error).toBeUndefined();
    const pending = down.results![0]!.migrationName;
    const response = await app.inject({ method: "GET", url: "/readyz" });
    expect(response.statusCode).toBe(503);
    expect(response.json().status).toBe("not_ready");
    expect(response.json().pendingMigrations).toEqual([pending]);
    await db.migrateToLatest();
    expect((await app.inject({ method: "GET", url: "/readyz" })).statusCode).toBe(200);
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
