import fs from "node:fs";
import path from "node:path";
import { beforeAll, expect, it } from "vitest";
import { API_PREFIX } from "../../http/error-handler.js";
import { describeEachDialect } from "../../test/dialects.js";
import { createPrincipal, type TestPrincipal } from "../../test/principals.js";
import {
  CORPUS,
  createUpload,
  patchHeaders,
  tusHeaders,
  tusUpload,
  useRunningApp,
} from "../uploads/uploads.test-support.js";

const canon = fs.readFileSync(path.join(CORPUS, "jpg/Canon_40D.jpg"));
const LIBRARY = "material";

describeEachDialect("quotas per library", (dialect) => {
  const { db, running } = useRunningApp(dialect);
  let admin: TestPrincipal;
  let reporter: TestPrincipal;

  const api = (who: TestPrincipal, method: string, url: string, body?: unknown) =>
    fetch(`${running().base}${API_PREFIX}${url}`, {
      method,
      headers: { ...who.headers, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const setQuota = (quotaBytes: number | null) =>
    api(admin, "PUT", `/storage/quotas/libraries/${LIBRARY}`, { quotaBytes });
  const usage = async () => {
    const response = await api(admin, "GET", "/storage/quotas");
    expect(response.status).toBe(200);
    const rows: { libraryId: string; usedBytes: number; quotaBytes: number | null }[] = (await response.json()).data;
    return rows.find((row) => row.libraryId === LIBRARY)!;
  };
  const storiesIn = async () =>
    Number(
      (
        await db()
          .kysely.selectFrom("stories")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where("library_id", "=", LIBRARY)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const blobCount = async () =>
    Number(
      (
        await db()
          .kysely.selectFrom("blobs")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const staged = () => fs.readdirSync(running().config.uploads.directory).filter((name) => !name.startsWith("."));

  beforeAll(async () => {
    admin = await createPrincipal(db(), { username: "quota-admin", roleId: "administrator", admin: true });
    reporter = await createPrincipal(db(), { username: "quota-reporter", roleId: "contributor" });
  });

  it("is set, changed and removed by the storage settings, each change in the operation log", async () => {
    expect(await usage()).toMatchObject({ usedBytes: 0, quotaBytes: null });
    const set = await setQuota(5_000_000);
    expect(set.status).toBe(200);
    expect((await set.json()).data).toMatchObject({ libraryId: LIBRARY, quotaBytes: 5_000_000, usedBytes: 0 });
    expect((await setQuota(null)).status).toBe(200);
    expect((await usage()).quotaBytes).toBeNull();
    const rows = await db()
      .kysely.selectFrom("audit_log")
      .select(["action", "target_id", "before", "after"])
      .where("action", "=", "storage.library-quota-set")
      .orderBy("id")
      .execute();
    expect(
      rows.map((row) => [row.target_id, db().adapter.readJson(row.before), db().adapter.readJson(row.after)]),
    ).toEqual([
      [LIBRARY, { quotaBytes: null }, { quotaBytes: 5_000_000 }],
      [LIBRARY, { quotaBytes: 5_000_000 }, { quotaBytes: null }],
    ]);
  });

  it("refuses bad input by field, an unknown library, and anyone without the storage settings", async () => {
    const negative = await setQuota(-1);
    expect(negative.status).toBe(400);
    expect((await negative.json()).msg).toContain("quotaBytes");
    const fraction = await api(admin, "PUT", `/storage/quotas/libraries/${LIBRARY}`, { quotaBytes: 1.5 });
    expect(fraction.status).toBe(400);
    expect((await api(admin, "PUT", "/storage/quotas/libraries/no-such-library", { quotaBytes: 1 })).status).toBe(404);
    expect((await api(reporter, "PUT", `/storage/quotas/libraries/${LIBRARY}`, { quotaBytes: 1 })).status).toBe(403);
    expect((await api(reporter, "GET", "/storage/quotas")).status).toBe(403);
    expect((await usage()).quotaBytes).toBeNull();
  });

  it("holds an upload at its creation: 413 naming the quota and the usage, nothing begun", async () => {
    expect((await setQuota(canon.length - 1)).status).toBe(200);
    const before = { stories: await storiesIn(), staged: staged().length };
    const response = await fetch(`${running().base}${API_PREFIX}/uploads`, {
      method: "POST",
      headers: tusHeaders(reporter.token, {
        "upload-length": String(canon.length),
        "upload-metadata": `libraryId ${Buffer.from(LIBRARY).toString("base64")}`,
      }),
    });
    expect(response.status).toBe(413);
    const body = await response.json();
    expect(body).toMatchObject({ code: 413, error: "library_quota_exceeded" });
    expect(body.msg).toContain(`0 of ${canon.length - 1} bytes are used`);
    expect(body.msg).toContain(`needs ${canon.length} more`);
    expect(await storiesIn()).toBe(before.stories);
    expect(staged().length).toBe(before.staged);
  });

  it("holds it again on the last byte (room at the creation, none at the end): 413, nothing stored", async () => {
    expect((await setQuota(canon.length * 10)).status).toBe(200);
    const url = await createUpload(running().base, reporter.token, canon.length, { libraryId: LIBRARY });
    // Meanwhile an administrator lowers the quota below what this file needs.
    expect((await setQuota(canon.length - 1)).status).toBe(200);
    const before = { stories: await storiesIn(), blobs: await blobCount() };
    const patch = await fetch(url, {
      method: "PATCH",
      headers: patchHeaders(reporter.token, 0),
      body: canon,
    });
    expect(patch.status).toBe(413);
    const body = await patch.json();
    expect(body).toMatchObject({ code: 413, error: "library_quota_exceeded" });
    expect(body.msg).toContain(`of ${canon.length - 1} bytes`);
    expect(await storiesIn()).toBe(before.stories);
    expect(await blobCount()).toBe(before.blobs);
    expect(staged().filter((name) => url.endsWith(name.split(".")[0]!))).toEqual([]);
    expect((await usage()).usedBytes).toBe(0);
  });

  it("takes what fits, and the storage monitor shows the usage beside the quota", async () => {
    expect((await setQuota(canon.length * 3)).status).toBe(200);
    const done = await tusUpload(running().base, reporter.token, canon, { metadata: { libraryId: LIBRARY } });
    expect(done.status).toBe(200);
    const after = await usage();
    expect(after.usedBytes).toBeGreaterThanOrEqual(canon.length);
    const monitor = await api(admin, "GET", "/monitor/storage");
    const row = (await monitor.json()).data.byLibrary.find((r: { libraryId: string }) => r.libraryId === LIBRARY);
    expect(row).toMatchObject({ quotaBytes: canon.length * 3, bytes: after.usedBytes });
  });
});
