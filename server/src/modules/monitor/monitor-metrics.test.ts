import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import { beforeAll, expect, it } from "vitest";
import { API_PREFIX } from "../../http/error-handler.js";
import { describeEachDialect, useTestApp } from "../../test/dialects.js";
import { createPrincipal, type TestPrincipal } from "../../test/principals.js";
import { storyRow } from "../../test/stories-app.js";
import type { JobDefinition } from "../jobs/job-types.js";

const SCRAPER_TOKEN = "monitor-metrics-scraper-0123456789";

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Prometheus text exposition format 0.0.4: `# HELP`, `# TYPE`, and `name{label="value",…} number` lines. */
function parseExposition(text: string): { samples: Sample[]; types: Map<string, string> } {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  for (const line of text.split("\n")) {
    if (line === "") continue;
    const type = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (type) types.set(type[1]!, type[2]!);
    if (line.startsWith("#")) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not an exposition line: ${line}`);
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? "").matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) {
      labels[pair[1]!] = pair[2]!.replace(/\\n/g, "\n").replace(/\\"/g, '"').replace(/\\\\/g, "\\");
    }
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return { samples, types };
}

const sum = (samples: Sample[], name: string, where: Record<string, string> = {}) =>
  samples
    .filter((s) => s.name === name && Object.entries(where).every(([key, value]) => s.labels[key] === value))
    .reduce((total, s) => total + s.value, 0);

describeEachDialect("the monitors' figures on /metrics", (dialect) => {
  const ctx = useTestApp(dialect, { env: { DAMS_METRICS_TOKEN: SCRAPER_TOKEN } });
  let admin: TestPrincipal;
  let base: string;

  beforeAll(async () => {
    const { app, db } = ctx();
    admin = await createPrincipal(db, { username: "metrics-monitor-admin", roleId: "administrator", admin: true });
    const photo = randomUUID();
    const video = randomUUID();
    await db.kysely
      .insertInto("stories")
      .values([
        storyRow({ id: photo, library_id: "product", type: "photo" }),
        storyRow({ id: video, library_id: "material", type: "video" }),
      ])
      .execute();
    const file = (storyId: string, role: string, size: number) => ({
      id: randomUUID(),
      story_id: storyId,
      version_no: 1,
      role,
      blob_key: `test/${randomUUID()}`,
      mime: "application/octet-stream",
      size,
      width: null,
      height: null,
      created_at: new Date().toISOString(),
    });
    await db.kysely
      .insertInto("story_files")
      .values([file(photo, "original", 1234), file(photo, "thumbnail", 56), file(video, "original", 98765)])
      .execute();
    const job: JobDefinition<{ storyId: string }> = { name: "metrics.example", async run() {} };
    await app.jobs.queue.enqueue(job, { storyId: "a" });
    await app.jobs.queue.enqueue(job, { storyId: "b" });
    await app.listen({ port: 0, host: "127.0.0.1" });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });

  const scrape = (authorization?: string) =>
    fetch(`${base}/metrics`, { headers: authorization ? { authorization } : {} });

  it("answers a scrape over HTTP with the storage monitor's, the task monitor's and the accounts' figures", async () => {
    const response = await scrape(`Bearer ${SCRAPER_TOKEN}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/plain");
    const { samples, types } = parseExposition(await response.text());
    for (const name of [
      "dams_storage_bytes",
      "dams_storage_files",
      "dams_stories",
      "dams_jobs_by_name",
      "dams_deliveries",
      "dams_uploads_in_progress",
      "dams_users",
      "dams_sessions",
    ]) {
      expect(types.get(name), name).toBe("gauge");
    }
    // The storage monitor's API says the same, library by library.
    const monitor = await ctx().app.inject({
      method: "GET",
      url: `${API_PREFIX}/monitor/storage`,
      headers: admin.headers,
    });
    expect(monitor.statusCode).toBe(200);
    const byLibrary: { libraryId: string; libraryName: string | null; bytes: number; files: number }[] =
      monitor.json().data.byLibrary;
    expect(byLibrary.length).toBeGreaterThanOrEqual(2);
    for (const library of byLibrary) {
      expect(sum(samples, "dams_storage_bytes", { library_id: library.libraryId })).toBe(library.bytes);
      expect(sum(samples, "dams_storage_files", { library_id: library.libraryId })).toBe(library.files);
    }
    const material = samples.find((s) => s.name === "dams_storage_bytes" && s.labels.library_id === "material");
    expect(material).toMatchObject({ labels: { part: "original", library: expect.any(String) }, value: 98765 });
    // The task monitor's counts by name and state.
    const summary = await ctx().app.inject({
      method: "GET",
      url: `${API_PREFIX}/jobs/summary`,
      headers: admin.headers,
    });
    const byName: { name: string; counts: Record<string, number> }[] = summary.json().data.byName;
    const example = byName.find((row) => row.name === "metrics.example");
    expect(example?.counts.queued).toBe(2);
    expect(sum(samples, "dams_jobs_by_name", { name: "metrics.example", state: "queued" })).toBe(2);
    // Accounts: what the users table holds.
    const users = await ctx().db.kysely.selectFrom("users").select("status").execute();
    expect(sum(samples, "dams_users", { status: "enabled" })).toBe(users.filter((u) => u.status === 1).length);
    expect(sum(samples, "dams_uploads_in_progress")).toBe(0);
    // The process's own figures are there too.
    expect(types.get("dams_process_cpu_seconds_total")).toBe("counter");
  });

  it("refuses a scrape without the token or a monitor reader's sign-in, and never echoes a token", async () => {
    const anonymous = await scrape();
    expect(anonymous.status).toBe(401);
    const wrong = await scrape("Bearer not-the-token-at-all-000000");
    expect(wrong.status).toBe(401);
    const body = await wrong.text();
    expect(body).not.toContain("dams_storage_bytes");
    expect(body).not.toContain(SCRAPER_TOKEN);
    const contributor = await createPrincipal(ctx().db, { username: "metrics-mon-contrib", roleId: "contributor" });
    expect((await scrape(contributor.headers.authorization)).status).toBe(401);
    expect((await scrape(admin.headers.authorization)).status).toBe(200);
  });
});
