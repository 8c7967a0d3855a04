import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config.js";

describe("config", () => {
  it("has the embedded defaults", () => {
    const config = loadConfig({});
    expect(config.port).toBe(8080);
    expect(config.dataDir).toBe(path.resolve("./data"));
    expect(config.database).toEqual({ kind: "sqlite", file: path.resolve("./data/dams.sqlite") });
    expect(config.admin.username).toBe("admin");
    expect(config.admin.password).toBeUndefined();
  });

  it("has media limits that can be lowered", () => {
    expect(loadConfig({}).media).toEqual({
      maxPixels: 268_402_689,
      timeoutMs: 4 * 3600 * 1000,
      memoryBytes: 4096 * 1024 * 1024,
      nice: 10,
      threads: Math.max(1, Math.floor(os.availableParallelism() / 2)),
    });
    expect(loadConfig({ DAMS_MEDIA_MAX_PIXELS: "50000000", DAMS_MEDIA_TIMEOUT_SECONDS: "600" }).media).toMatchObject({
      maxPixels: 50_000_000,
      timeoutMs: 600_000,
    });
  });

  it("takes the shared keys from the variables or their files, else from the database; refuses a short one", () => {
    expect(loadConfig({}).mediaUrls).toEqual({
      key: undefined,
      keyFile: undefined,
      legacyFile: path.resolve("./data/media-url.key"),
      ttlSeconds: 600,
    });
    expect(loadConfig({}).channelCredentials).toEqual({ key: undefined, keyFile: undefined });
    expect(loadConfig({ DAMS_CHANNEL_CREDENTIALS_KEY_FILE: "/run/secrets/channels" }).channelCredentials).toEqual({
      key: undefined,
      keyFile: "/run/secrets/channels",
    });
    expect(() => loadConfig({ DAMS_CHANNEL_CREDENTIALS_KEY: "short" })).toThrow(
      /DAMS_CHANNEL_CREDENTIALS_KEY: must be at least 32/,
    );
    const key = "k".repeat(32);
    expect(loadConfig({ DAMS_MEDIA_URL_KEY: key, DAMS_MEDIA_URL_TTL_SECONDS: "120" }).mediaUrls).toMatchObject({
      key,
      ttlSeconds: 120,
    });
    expect(() => loadConfig({ DAMS_MEDIA_URL_KEY: "short" })).toThrow(/DAMS_MEDIA_URL_KEY: must be at least 32/);
    expect(() => loadConfig({ DAMS_MEDIA_URL_TTL_SECONDS: "5" })).toThrow(ConfigError);
  });

  it("reads PostgreSQL and SQLite URLs", () => {
    expect(loadConfig({ DATABASE_URL: "postgres://u@db:5432/dams" }).database).toEqual({
      kind: "postgres",
      url: "postgres://u@db:5432/dams",
    });
    expect(loadConfig({ DATABASE_URL: "sqlite:/srv/dams.db" }).database).toEqual({
      kind: "sqlite",
      file: "/srv/dams.db",
    });
  });

  it("stops with a message naming each bad variable", () => {
    expect(() => loadConfig({ PORT: "eighty", DATABASE_URL: "mysql://x", DAMS_ADMIN_PASSWORD: "short" })).toThrow(
      ConfigError,
    );
    try {
      loadConfig({ PORT: "eighty", DATABASE_URL: "mysql://x", DAMS_ADMIN_PASSWORD: "short" });
    } catch (error) {
      const message = (error as Error).message;
      expect(message).toContain("PORT");
      expect(message).toContain("DATABASE_URL: must start with postgres://");
      expect(message).toContain("DAMS_ADMIN_PASSWORD: must be at least 8 characters");
    }
  });

  it("reads the job workers' settings, with defaults, and refuses a negative worker count", () => {
    expect(loadConfig({}).jobs).toEqual({
      workers: 2,
      pollIntervalMs: 1000,
      leaseMs: 30_000,
      backoffBaseMs: 5000,
      backoffMaxMs: 3_600_000,
      progressIntervalMs: 1000,
      stopTimeoutMs: 8000,
      abortGraceMs: 5000,
    });
    expect(loadConfig({ DAMS_WORKERS: "0", DAMS_JOBS_LEASE_MS: "1500" }).jobs).toMatchObject({
      workers: 0,
      leaseMs: 1500,
    });
    expect(() => loadConfig({ DAMS_WORKERS: "-1" })).toThrow(/DAMS_WORKERS/);
  });
});
