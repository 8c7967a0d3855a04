import { beforeAll, expect, it } from "vitest";
import { API_PREFIX } from "../../http/error-handler.js";
import { describeEachDialect } from "../../test/dialects.js";
import type { TestPrincipal } from "../../test/principals.js";
import { readZip } from "../../test/zip.js";
import { SharesRepository, VISITS_KEPT } from "./shares.repository.js";
import { useShareLinks } from "./shares.test-support.js";

/**
 * Share links through the API: the owner's options and list, and the
 * visitor's side (no user: X-Share-Token, X-Share-Session, signed file URLs).
 */
describeEachDialect("share links", (dialect) => {
  const { ctx, call, people, visitor, photo, share } = useShareLinks(dialect);
  let owner: TestPrincipal;
  let other: TestPrincipal;
  let admin: TestPrincipal;

  beforeAll(() => {
    ({ owner, other, admin } = people);
  });

  it("shares a story with a password and an expiry; the visitor unlocks, views and downloads as allowed", async () => {
    const story = await photo(owner, { title: "台风山竹" });
    const expiresAt = new Date(Date.now() + 3 * 86_400_000).toISOString();
    const created = await share(owner, {
      target: { kind: "story", libraryId: story.libraryId, storyId: story.id },
      password: "open sesame",
      expiresAt,
      downloadPolicy: "original",
      message: "for the partner desk",
    });
    expect(created.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(created.url).toBe(`/share/storyPreview?token=${created.token}`);
    expect(Date.parse(created.expiresAt!)).toBe(Date.parse(expiresAt));
    const row = await ctx().db.kysely.selectFrom("shares").selectAll().where("id", "=", created.id).executeTakeFirst();
    expect(JSON.stringify(row)).not.toContain(created.token);
    expect(row!.password_hash).toMatch(/^\$argon2id\$/);

    const guest = visitor();
    guest.session.token = created.token;
    const locked = await guest.open();
    expect(locked.statusCode).toBe(200);
    expect(locked.headers["x-robots-tag"]).toContain("noindex");
    expect(locked.json().data).toMatchObject({ locked: true, title: "台风山竹", stories: [], message: null });
    const wrong = await guest.unlock("sesame?");
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().error).toBe("share_password_wrong");
    const unlocked = await guest.unlock("open sesame");
    expect(unlocked.statusCode).toBe(200);
    guest.session.session = unlocked.json().data.session;

    const opened = (await guest.open()).json().data;
    expect(opened).toMatchObject({ locked: false, message: "for the partner desk", owner: "share-owner" });
    expect(opened.stories).toHaveLength(1);
    const shown = opened.stories[0];
    expect(shown).toMatchObject({ storyId: story.id, title: "台风山竹", credit: "Li Lei", metadata: null });
    expect(JSON.stringify(opened)).not.toMatch(/originals\/|renditions\//);
    const preview = await guest.get(shown.preview.url);
    expect(preview.statusCode).toBe(200);
    expect(preview.body).toBe(`preview of ${story.id}`);
    const download = await guest.get(shown.downloadUrl);
    expect(download.statusCode).toBe(200);
    expect(download.headers["content-disposition"]).toMatch(/^attachment/);
    expect(download.headers["content-security-policy"]).toContain("sandbox");
    const zip = await guest.get(opened.zipUrl);
    expect(zip.statusCode).toBe(200);
    expect(zip.headers["content-type"]).toBe("application/zip");

    const mine = (await call(owner, "GET", "/shares")).json().data;
    expect(mine.content[0]).toMatchObject({
      id: created.id,
      views: 1,
      downloads: 2,
      hasPassword: true,
      state: "active",
      storyCount: 1,
    });
    expect(mine.content[0].lastVisitAt).not.toBeNull();
    expect(JSON.stringify(mine)).not.toMatch(/argon2|token_hash|tokenHash/);
    const log = await ctx()
      .db.kysely.selectFrom("audit_log")
      .select(["action", "result"])
      .where("target_id", "=", created.id)
      .orderBy("id")
      .execute();
    expect(log.map((entry) => `${entry.action}:${entry.result}`)).toEqual([
      "share.create:ok",
      "share.unlock:failed",
      "share.unlock:ok",
      "share.open:ok",
      "share.download:ok",
      "share.download:ok",
    ]);
  });

  it("keeps a visitor log: the owner and an administrator read it, newest first, with address and story; others get 404", async () => {
    const story = await photo(owner, { title: "visitor log" });
    const created = await share(owner, {
      target: { kind: "story", libraryId: story.libraryId, storyId: story.id },
      password: "open sesame",
      downloadPolicy: "preview",
    });
    const guest = visitor();
    guest.session.token = created.token;
    const agent = { "user-agent": `Mozilla/5.0 (iPhone) ${"x".repeat(400)}` };
    expect((await guest.open()).statusCode).toBe(200);
    expect((await guest.unlock("wrong")).statusCode).toBe(401);
    const unlocked = await guest.unlock("open sesame");
    guest.session.session = unlocked.json().data.session;
    const opened = (await guest.get(`${API_PREFIX}/shared`, agent)).json().data;
    const shown = opened.stories[0];
    expect((await guest.get(shown.thumbnail ?? shown.preview.url)).statusCode).toBe(200);
    expect((await guest.get(shown.preview.url)).statusCode).toBe(200);
    expect((await guest.get(shown.downloadUrl, agent)).statusCode).toBe(200);
    expect((await guest.get(opened.zipUrl)).statusCode).toBe(200);

    const read = await call(owner, "GET", `/shares/${created.id}/visits?size=50`);
    expect(read.statusCode, read.body).toBe(200);
    const visits = read.json().data;
    expect(visits.totalElements).toBe(shown.thumbnail ? 7 : 8);
    expect(visits.content.map((visit: { action: string }) => visit.action).reverse()).toEqual([
      "locked",
      "wrong-password",
      "unlock",
      "open",
      ...(shown.thumbnail ? [] : ["view"]),
      "view",
      "download",
      "zip",
    ]);
    for (const visit of visits.content) expect(visit.address).toBe(guest.address);
    const download = visits.content.find((visit: { action: string }) => visit.action === "download");
    expect(download).toMatchObject({ storyId: story.id, storyTitle: "visitor log" });
    expect(download.userAgent).toMatch(/^Mozilla\/5\.0 \(iPhone\) x+$/);
    expect(download.userAgent.length).toBeLessThanOrEqual(160);
    expect(visits.content.find((visit: { action: string }) => visit.action === "zip")).toMatchObject({
      storyId: null,
      storyTitle: null,
    });
    const paged = (await call(owner, "GET", `/shares/${created.id}/visits?size=2&page=1`)).json().data;
    expect(paged.content.map((visit: { id: number }) => visit.id)).toEqual(
      visits.content.slice(2, 4).map((visit: { id: number }) => visit.id),
    );

    expect((await call(other, "GET", `/shares/${created.id}/visits`)).statusCode).toBe(404);
    const byAdmin = await call(admin, "GET", `/shares/${created.id}/visits?size=50`);
    expect(byAdmin.statusCode).toBe(200);
    expect(byAdmin.json().data.totalElements).toBe(visits.totalElements);
  });

  it("keeps each share's newest visits only, and deletes them with the share", async () => {
    const story = await photo(owner);
    const created = await share(owner, { target: { kind: "story", libraryId: story.libraryId, storyId: story.id } });
    const { db } = ctx();
    const repository = new SharesRepository(db.kysely, db.adapter);
    const at = new Date().toISOString();
    for (let index = 0; index < VISITS_KEPT + 3; index++) {
      const address = `10.9.${Math.floor(index / 250)}.${index % 250}`;
      await repository.recordVisit({
        shareId: created.id,
        at,
        address,
        action: "open",
        storyId: null,
        userAgent: null,
      });
    }
    const { visits, total } = await repository.visits(created.id, { page: 0, size: 1 });
    expect(total).toBe(VISITS_KEPT);
    expect(visits[0]!.address).toBe(`10.9.${Math.floor((VISITS_KEPT + 2) / 250)}.${(VISITS_KEPT + 2) % 250}`);
    const oldest = await repository.visits(created.id, { page: VISITS_KEPT - 1, size: 1 });
    expect(oldest.visits[0]!.address).toBe("10.9.0.3");
    await db.kysely.deleteFrom("shares").where("id", "=", created.id).execute();
    expect((await repository.visits(created.id, { page: 0, size: 1 })).total).toBe(0);
  });

  it("edits the expiry within the administrator's limits, and 'never' only when allowed", async () => {
    const story = await photo(owner);
    const created = await share(owner, { target: { kind: "story", libraryId: "product", storyId: story.id } });
    expect(Date.parse(created.expiresAt!) - Date.now()).toBeGreaterThan(6.9 * 86_400_000);
    const never = await call(owner, "PATCH", `/shares/${created.id}`, { expiresAt: null });
    expect(never.statusCode).toBe(400);
    const far = new Date(Date.now() + 120 * 86_400_000).toISOString();
    expect((await call(owner, "PATCH", `/shares/${created.id}`, { expiresAt: far })).statusCode).toBe(400);
    expect((await call(owner, "PUT", "/share-settings", { maxDays: 365, allowNever: true })).statusCode).toBe(403);
    expect((await call(admin, "PUT", "/share-settings", { maxDays: 365, allowNever: true })).statusCode).toBe(200);
    const longer = await call(owner, "PATCH", `/shares/${created.id}`, { expiresAt: far });
    expect(longer.statusCode).toBe(200);
    expect(Date.parse(longer.json().data.expiresAt)).toBe(Date.parse(far));
    expect((await call(owner, "PATCH", `/shares/${created.id}`, { expiresAt: null })).json().data.expiresAt).toBeNull();
    expect((await call(other, "PATCH", `/shares/${created.id}`, { expiresAt: far })).statusCode).toBe(404);
    await call(admin, "PUT", "/share-settings", { maxDays: 90, allowNever: false });
  });

  it("shares several stories in order, with all metadata but no location unless chosen", async () => {
    const a = await photo(owner, { title: "first" });
    const b = await photo(owner, { title: "second", libraryId: "material" });
    await ctx()
      .db.kysely.updateTable("stories")
      .set({
        gps: JSON.stringify({ latitude: 22.5, longitude: 114.1 }),
        properties: JSON.stringify({ cameraSerial: "X1", lens: "50mm" }),
      })
      .where("id", "=", b.id)
      .execute();
    const stripped = await share(owner, {
      target: { kind: "stories", stories: [b, a].map((s) => ({ libraryId: s.libraryId, storyId: s.id })) },
      metadata: "all",
      downloadPolicy: "none",
    });
    const guest = visitor();
    guest.session.token = stripped.token;
    const opened = (await guest.open()).json().data;
    expect(opened.stories.map((s: { title: string }) => s.title)).toEqual(["second", "first"]);
    expect(opened.zipUrl).toBeNull();
    expect(opened.stories[0].downloadUrl).toBeNull();
    expect(opened.stories[0].metadata.properties).toEqual({ lens: "50mm" });
    expect(opened.stories[0].metadata.gps).toBeUndefined();
    const kept = await share(owner, {
      target: { kind: "story", libraryId: b.libraryId, storyId: b.id },
      metadata: "all",
      keepLocation: true,
    });
    guest.session.token = kept.token;
    const withLocation = (await guest.open()).json().data.stories[0].metadata;
    expect(withLocation).toMatchObject({ gps: { latitude: 22.5 }, properties: { cameraSerial: "X1" } });
  });

  it("leaves stories under embargo out until it is lifted; a share of embargoed stories only answers 403 with its end", async () => {
    const held = await photo(owner, { title: "禁发稿" });
    const free = await photo(owner, { title: "free to show" });
    const single = await share(owner, { target: { kind: "story", libraryId: held.libraryId, storyId: held.id } });
    const both = await share(owner, {
      target: { kind: "stories", stories: [held, free].map((s) => ({ libraryId: s.libraryId, storyId: s.id })) },
      downloadPolicy: "original",
    });
    const guest = visitor();
    guest.session.token = both.token;
    const before = (await guest.open()).json().data;
    expect(before.stories.map((s: { title: string }) => s.title)).toEqual(["禁发稿", "free to show"]);
    const heldPreview = before.stories[0].preview.url as string;
    expect((await guest.get(heldPreview)).statusCode).toBe(200);

    const until = new Date(Date.now() + 3_600_000).toISOString();
    const embargo = async (embargoUntil: string | null) => {
      const response = await call(owner, "POST", `/workflow-story-publish/${held.libraryId}/${held.id}`, {
        channels: [],
        embargoUntil,
      });
      expect(response.statusCode, response.body).toBe(200);
    };
    await embargo(until);
    const during = (await guest.open()).json().data;
    expect(during.stories.map((s: { title: string }) => s.title)).toEqual(["free to show"]);
    // A file URL handed out before the embargo no longer opens; the zip holds the other story only.
    expect((await guest.get(heldPreview)).statusCode).toBe(404);
    const zip = await guest.get(during.zipUrl);
    expect(zip.statusCode).toBe(200);
    const entries = await readZip(zip.rawPayload);
    expect(entries.size).toBe(1);
    guest.session.token = single.token;
    const refusedOpen = await guest.open();
    expect(refusedOpen.statusCode).toBe(403);
    expect(refusedOpen.json()).toMatchObject({
      error: "share_embargoed",
      msgCode: "share.embargoed",
      msgParams: { until },
    });

    await embargo(null);
    const lifted = await guest.open();
    expect(lifted.statusCode, lifted.body).toBe(200);
    expect(lifted.json().data.stories.map((s: { title: string }) => s.title)).toEqual(["禁发稿"]);
  });
});
