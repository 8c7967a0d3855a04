import pg from "pg";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    postgresUrl: string | null;
    /** A running Ceph RGW (scripts/ceph-rgw.mjs, started by `npm test`), or null. */
    rgw: RgwEndpoint | null;
  }
}

export interface RgwEndpoint {
  endpoint: string;
  accessKeyId: string;
  secretAccessKey: string;
}

export const DEFAULT_POSTGRES_URL = "postgres://postgres@127.0.0.1:5432/postgres";

/**
 * Finds the PostgreSQL the integration tests run against. Without one the
 * PostgreSQL half is skipped with a loud warning, except on CI, where it
 * must run: there a missing server fails the run.
 */
export default async function setup(project: TestProject): Promise<void> {
  project.provide("rgw", await findRgw());
  const wanted = (process.env.DAMS_TEST_DIALECTS ?? "sqlite,postgres").split(",");
  const url = process.env.DAMS_TEST_POSTGRES_URL ?? DEFAULT_POSTGRES_URL;
  if (!wanted.includes("postgres")) {
    project.provide("postgresUrl", null);
    return;
  }
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query("select 1");
    project.provide("postgresUrl", url);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    if (process.env.CI) throw new Error(`PostgreSQL is required on CI but ${url} is unreachable: ${reason}`);
    warnLoudly([
      `PostgreSQL at ${url} is unreachable (${reason}).`,
      "THE POSTGRESQL HALF OF THE INTEGRATION TESTS IS SKIPPED.",
      "Set DAMS_TEST_POSTGRES_URL to run it.",
    ]);
    project.provide("postgresUrl", null);
  } finally {
    await client.end().catch(() => {});
  }
}

function warnLoudly(lines: string[]): void {
  const line = "!".repeat(78);
  process.stderr.write(`\n${line}\n${lines.map((text) => `!! ${text}`).join("\n")}\n${line}\n\n`);
}

/**
 * The Ceph RGW that `npm test` starts (scripts/ceph-rgw.mjs) and names in
 * DAMS_TEST_S3_ENDPOINT and the two key variables. Without it the tests that
 * need a real S3 server are skipped with a warning, except on CI.
 */
async function findRgw(): Promise<RgwEndpoint | null> {
  const endpoint = process.env.DAMS_TEST_S3_ENDPOINT;
  const accessKeyId = process.env.DAMS_TEST_S3_ACCESS_KEY_ID;
  const secretAccessKey = process.env.DAMS_TEST_S3_SECRET_ACCESS_KEY;
  let problem = "DAMS_TEST_S3_ENDPOINT is not set";
  if (endpoint && accessKeyId && secretAccessKey) {
    try {
      // An anonymous listing: RGW answers it (200) whoever asks.
      const response = await fetch(endpoint, { signal: AbortSignal.timeout(5000) });
      if (response.ok) return { endpoint, accessKeyId, secretAccessKey };
      problem = `${endpoint} answered ${response.status}`;
    } catch (error) {
      problem = `${endpoint} is unreachable (${error instanceof Error ? error.message : String(error)})`;
    }
  }
  if (process.env.CI) throw new Error(`Ceph RGW is required on CI but ${problem}`);
  warnLoudly([
    `No Ceph RGW: ${problem}.`,
    "THE TESTS AGAINST A REAL S3 SERVER ARE SKIPPED.",
    "Start one with `eval $(node scripts/ceph-rgw.mjs start)` (npm test does it).",
  ]);
  return null;
}
