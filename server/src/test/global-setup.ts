import pg from "pg";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    postgresUrl: string | null;
  }
}

export const DEFAULT_POSTGRES_URL = "postgres://postgres@127.0.0.1:5432/postgres";

/**
 * Finds the PostgreSQL the integration tests run against. Without one the
 * PostgreSQL half is skipped with a loud warning, except on CI, where it
 * must run: there a missing server fails the run.
 */
export default async function setup(project: TestProject): Promise<void> {
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
    const line = "!".repeat(78);
    process.stderr.write(
      `\n${line}\n!! PostgreSQL at ${url} is unreachable (${reason}).\n!! THE POSTGRESQL HALF OF THE INTEGRATION TESTS IS SKIPPED.\n!! Set DAMS_TEST_POSTGRES_URL to run it.\n${line}\n\n`,
    );
    project.provide("postgresUrl", null);
  } finally {
    await client.end().catch(() => {});
  }
}
