import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";

/**
 * The journeys run against the real product: the built server serving the
 * built web app on a fresh SQLite data dir, in Debian's Chromium.
 */
const port = Number(process.env.E2E_PORT ?? 18_480);
/**
 * A fresh data dir per run, made once: the config is read again in each worker, which finds it in the
 * environment; the global teardown removes it (one given through E2E_DATA_DIR is kept).
 */
const dataDir = process.env.E2E_DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), "dams-e2e-"));
if (!process.env.E2E_DATA_DIR) {
  process.env.E2E_DATA_DIR = dataDir;
  process.env.E2E_DATA_DIR_TEMPORARY = "1";
}
export const baseURL = `http://127.0.0.1:${port}`;
/**
 * Another newsroom system that frames the embeddable pages: the embed journey
 * serves a host page from this second local origin, which the server allows
 * (DAMS_EMBED_ORIGINS); the origin one port above it is not allowed.
 */
export const embedHostPort = port + 1000;
/** The access-token lifetime the journeys run with (the server's minimum is 30 s). */
export const ACCESS_TOKEN_TTL_SECONDS = 30;

export default defineConfig({
  testDir: "tests",
  globalTeardown: "./global-teardown.ts",
  // Each journey process of `npm test` has its own (E2E_OUTPUT_DIR), since a run empties its output dir first.
  outputDir: process.env.E2E_OUTPUT_DIR ?? "test-results",
  timeout: 120_000,
  // A bound, not a wait: an assertion passes as soon as it holds. CI shares two cores with other work, where
  // a page's first chunk or a poll's answer can take many seconds: load averages of 13–17 were seen, and a
  // clean-clone run beside four other engineers' work (load 20–33) had a users list appear after 30 s.
  expect: { timeout: 60_000 },
  fullyParallel: false,
  workers: 1,
  // One second try, so that one journey losing a race with a loaded machine does not hide the other 76's
  // answer. A journey that needed it is reported as flaky, by name, in the list and in `npm test`'s summary;
  // one that fails twice fails the run (docs/decisions.md).
  retries: 1,
  reporter: [["list"], ["json"]],
  use: {
    baseURL,
    // A click or fill waits for its element at most this long (twice an assertion's bound), not for the whole
    // test's timeout: a click that can never happen (an element covered by a dropdown opened by mistake)
    // used to hold a long journey for its full 10 minutes before the retry could start.
    actionTimeout: 120_000,
    screenshot: "only-on-failure",
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-dev-shm-usage"],
    },
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"], channel: undefined } }],
  webServer: {
    command: `node ${path.resolve(import.meta.dirname, "../server/dist/cli.js")} serve`,
    url: `${baseURL}/readyz`,
    timeout: 60_000,
    reuseExistingServer: false,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      PORT: String(port),
      HOST: "127.0.0.1",
      DAMS_DATA_DIR: dataDir,
      DAMS_ADMIN_PASSWORD: "e2e-admin-password",
      DAMS_LOG_LEVEL: "warn",
      // Redirect URIs and the token audience must name the address the browser uses.
      DAMS_PUBLIC_URL: baseURL,
      // Short-lived access tokens, so a journey can watch the silent refresh.
      DAMS_OIDC_ACCESS_TOKEN_TTL: String(ACCESS_TOKEN_TTL_SECONDS),
      // The download-centre journey serves a file from a local origin on 127.0.0.1 (standing in for the
      // internet), so this server may fetch from that one address; every other private, loopback
      // (127.0.0.2, ::1…) and metadata address stays refused, which the same journey checks.
      DAMS_FETCH_ALLOW_PRIVATE: "127.0.0.1/32",
      // The picture-desk journey's website is an HTTP receiver on 127.0.0.1 (standing in for a CMS): HTTP
      // channels may deliver to that one address.
      DAMS_CHANNEL_ALLOW_PRIVATE: "127.0.0.1/32",
      DAMS_EMBED_ORIGINS: `http://127.0.0.1:${embedHostPort}`,
    },
  },
});
