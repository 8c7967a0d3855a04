import { describe, expect, it } from "vitest";
import { loadConfig } from "../../config.js";
import { describeEachDialect, useTestApp } from "../../test/dialects.js";

const CMS = "https://cms.example.com";
const PORTAL = "http://127.0.0.1:8081";

describeEachDialect("embeddable pages", (dialect) => {
  const ctx = useTestApp(dialect, { env: { DAMS_EMBED_ORIGINS: `${CMS}/, ${PORTAL}` } });

  it("answers the allow-list without a session", async () => {
    const response = await ctx().app.inject({ method: "GET", url: "/dams/api/v1/embed/config" });
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toEqual({
      origins: [CMS, PORTAL],
      paths: ["/source/ismpsource", "/source/ismpupload", "/source/ismpnetdisk"],
    });
  });

  it("lets only the allowed origins frame the two embeddable pages", async () => {
    for (const url of [
      "/source/ismpsource",
      "/source/ismpsource?origin=https%3A%2F%2Fcms.example.com",
      "/source/ismpupload/",
    ]) {
      const response = await ctx().app.inject({ method: "GET", url });
      const policy = String(response.headers["content-security-policy"]);
      expect(policy, url).toContain(`frame-ancestors 'self' ${CMS} ${PORTAL};`);
      expect(policy).toContain("object-src 'none'");
      expect(response.headers["x-frame-options"], url).toBeUndefined();
      expect(response.headers["cross-origin-opener-policy"], url).toBe("unsafe-none");
    }
  });

  it("keeps every other page and the API unframeable by others", async () => {
    for (const url of [
      "/frontend/search",
      "/source/editimg",
      "/source/ismpsource/other",
      "/dams/api/v1/embed/config",
    ]) {
      const response = await ctx().app.inject({ method: "GET", url });
      expect(response.headers["content-security-policy"], url).toContain("frame-ancestors 'self';");
      expect(response.headers["x-frame-options"], url).toBe("SAMEORIGIN");
      expect(response.headers["cross-origin-opener-policy"], url).toBe("same-origin");
    }
  });
});

describeEachDialect("embeddable pages without an allow-list", (dialect) => {
  const ctx = useTestApp(dialect);

  it("frame nowhere but our own origin", async () => {
    const response = await ctx().app.inject({ method: "GET", url: "/source/ismpsource" });
    expect(response.headers["content-security-policy"]).toContain("frame-ancestors 'self';");
    expect(response.headers["x-frame-options"]).toBe("SAMEORIGIN");
    const config = await ctx().app.inject({ method: "GET", url: "/dams/api/v1/embed/config" });
    expect(config.json().data.origins).toEqual([]);
  });
});

describe("DAMS_EMBED_ORIGINS", () => {
  it.each([
    "https://cms.example.com/path",
    "cms.example.com",
    "*",
    "javascript:alert(1)",
    "https://cms.example.com:443",
  ])("refuses %s at boot", (value) => {
    expect(() => loadConfig({ DAMS_EMBED_ORIGINS: value })).toThrow(/DAMS_EMBED_ORIGINS.*origin like/s);
  });
});
