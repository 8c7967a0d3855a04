import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../config.js";

describe("sign-in configuration", () => {
  it("defaults to the embedded provider on the local public URL", () => {
    const { oidc } = loadConfig({ PORT: "9000", DAMS_DATA_DIR: "/srv/dams" });
    expect(oidc).toEqual({
      publicBase: "http://localhost:9000",
      keysFile: undefined,
      legacyKeysFile: path.resolve("/srv/dams/oidc-keys.json"),
      redirectUris: ["http://localhost:9000/user/login"],
      accessTokenTtlSeconds: 600,
      clientId: "newsroom",
      external: undefined,
    });
  });

  it("reads the public URL, redirect URIs, key file and token lifetime", () => {
    const { oidc } = loadConfig({
      DAMS_PUBLIC_URL: "https://dams.example.com/",
      DAMS_OIDC_REDIRECT_URIS: "https://dams.example.com/user/login, https://dams.example.com/callback",
      DAMS_OIDC_KEYS_FILE: "/run/secrets/oidc.json",
      DAMS_OIDC_ACCESS_TOKEN_TTL: "300",
    });
    expect(oidc.publicBase).toBe("https://dams.example.com");
    expect(oidc.redirectUris).toEqual(["https://dams.example.com/user/login", "https://dams.example.com/callback"]);
    expect(oidc.keysFile).toBe("/run/secrets/oidc.json");
    expect(oidc.accessTokenTtlSeconds).toBe(300);
  });

  it("switches to an external issuer with its audience and admin claim", () => {
    const { oidc } = loadConfig({
      DAMS_OIDC_ISSUER_URL: "https://sso.example.com/realms/news/",
      DAMS_OIDC_AUDIENCE: "dams-api",
      DAMS_OIDC_ADMIN_CLAIM: "groups=dams-admins",
    });
    expect(oidc.external).toEqual({
      issuerUrl: "https://sso.example.com/realms/news",
      audience: "dams-api",
      adminClaim: { name: "groups", value: "dams-admins" },
    });
    expect(loadConfig({ DAMS_OIDC_ISSUER_URL: "https://sso.example.com" }).oidc.external?.audience).toBe("newsroom");
  });

  it("stops with a message naming a bad variable", () => {
    expect(() => loadConfig({ DAMS_OIDC_ADMIN_CLAIM: "groups" })).toThrow(
      /DAMS_OIDC_ADMIN_CLAIM: must look like claim=value/,
    );
    expect(() => loadConfig({ DAMS_OIDC_REDIRECT_URIS: "/relative" })).toThrow(/DAMS_OIDC_REDIRECT_URIS/);
    expect(() => loadConfig({ DAMS_OIDC_ISSUER_URL: "not a url" })).toThrow(/DAMS_OIDC_ISSUER_URL/);
  });
});
