import { randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import type { InjectOptions } from "fastify";
import { afterAll, beforeAll, expect, it } from "vitest";
import { API_PREFIX } from "../../http/error-handler.js";
import { describeEachDialect } from "../../test/dialects.js";
import { createPrincipal, type TestPrincipal } from "../../test/principals.js";
import { api, uploadStory, useStoriesApp } from "../../test/stories-app.js";
import { readZip } from "../../test/zip.js";
import { RolesRepository } from "../access/roles.repository.js";
import { buildSearch } from "../search/search.compose.js";
import { StoriesRepository } from "../stories/stories.repository.js";
import { SharesRepository, VISITS_KEPT } from "./shares.repository.js";

/**
 * Share links through the API: the owner's options and list, and the
 * visitor's side (no user: X-Share-Token, X-Share-Session, signed file URLs).
 * The abuse cases are a table, each refused, counted in `refused`.
 */
describeEachDialect("share links", (dialect) => {
  const ctx = useStoriesApp(dialect);
  const call = api(ctx);
  let owner: TestPrincipal;
  let other: TestPrincipal;
  let admin: TestPrincipal;
  const refused = new Set<string>();
  let address = 0;

  beforeAll(async () => {
    owner = await createPrincipal(ctx().db, { username: "share-owner", roleId: "editor" });
    other = await createPrincipal(ctx().db, { username: "share-other", roleId: "editor" });
    admin = await createPrincipal(ctx().db, { username: "share-admin", roleId: "administrator", admin: true });
  });

  afterAll(() => {
    console.log(`share abuse cases refused [${dialect}]: ${refused.size} (${[...refused].sort().join(", ")})`);
  });

  /** Each visitor comes from an address of its own, so the guessing throttle of one test leaves the others alone. */
  function visitor() {
    const remoteAddress = `10.0.${Math.floor(++address / 250)}.${(address % 250) + 1}`;
    const session: { token?: string; session?: string } = {};
    const send = (options: InjectOptions & { url: string }) =>
      ctx().app.inject({
        ...options,
        remoteAddress,
        headers: {
          ...(session.token ? { "x-share-token": session.token } : {}),
          ...(session.session ? { "x-share-session": session.session } : {}),
          ...(options.headers ?? {}),
        },
      });
    return {
      session,
      address: remoteAddress,
      open: () => send({ method: "GET", url: `${API_PREFIX}/shared` }),
      unlock: (password: string) => send({ method: "POST", url: `${API_PREFIX}/shared/unlock`, payload: { password } }),
      get: (url: string, headers: Record<string, string> = {}) => send({ method: "GET", url, headers }),
    };
  }

  /** A committed photo with a preview rendition (bytes of its own), in `libraryId`/`folderId`. */
  async function photo(who: TestPrincipal, input: { libraryId?: string; folderId?: string; title?: string } = {}) {
    const libraryId = input.libraryId ?? "product";
    const { story } = await uploadStory(ctx(), who, { libraryId, folderId: input.folderId });
    const committed = await call(who, "POST", "/workflow-story-create/photo/commit", {
      libraryId,
      storyIds: [story.id],
    });
    expect(committed.statusCode).toBe(200);
    if (input.title) {
      await call(who, "PUT", `/workflow-story-edit/photo/${story.id}?libraryId=${libraryId}`, {
        title: input.title,
        caption: `caption of ${input.title}`,
        authors: ["Li Lei"],
      });
    }
    const { db, blobs } = ctx();
    const key = `renditions/${story.id}/v1/preview.jpg`;
    const { size } = await blobs.put(key, Readable.from([Buffer.from(`preview of ${story.id}`)]));
    const repository = new StoriesRepository(db.kysely, db.adapter, buildSearch(db).index);
    await repository.putFile(
      { storyId: story.id, versionNo: 1, role: "preview", blobKey: key, mime: "image/jpeg", size, width: 4, height: 3 },
      new Date().toISOString(),
    );
    return { id: story.id, libraryId };
  }

  async function share(who: TestPrincipal, body: object) {
    const response = await call(who, "POST", "/shares", body);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data as { id: string; token: string; url: string; expiresAt: string | null };
  }

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

  it("refuses every abuse case", async () => {
    const case_ = async (name: string, check: () => Promise<void>) => {
      await check();
      refused.add(name);
    };
    const gone = (response: { statusCode: number; json(): { error: string; msg: string } }) => {
      expect(response.statusCode).toBe(410);
      expect(response.json().error).toBe("share_unavailable");
      return response.json().msg;
    };

    await case_("expired", async () => {
      const story = await photo(owner);
      const created = await share(owner, { target: { kind: "story", libraryId: "product", storyId: story.id } });
      const guest = visitor();
      guest.session.token = created.token;
      const preview = (await guest.open()).json().data.stories[0].preview.url;
      await ctx()
        .db.kysely.updateTable("shares")
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .where("id", "=", created.id)
        .execute();
      gone(await guest.open());
      gone(await guest.get(preview));
    });

    let revokedMessage = "";
    await case_("revoked (link and the file URLs it handed out)", async () => {
      const story = await photo(owner);
      const created = await share(owner, {
        target: { kind: "story", libraryId: "product", storyId: story.id },
        downloadPolicy: "original",
      });
      const guest = visitor();
      guest.session.token = created.token;
      const shown = (await guest.open()).json().data.stories[0];
      expect((await call(other, "DELETE", `/shares/${created.id}`)).statusCode).toBe(404);
      expect((await call(owner, "DELETE", `/shares/${created.id}`)).statusCode).toBe(200);
      revokedMessage = gone(await guest.open());
      gone(await guest.get(shown.preview.url));
      gone(await guest.get(shown.downloadUrl));
      expect(
        (await call(owner, "GET", "/shares")).json().data.content.find((s: { id: string }) => s.id === created.id),
      ).toMatchObject({ state: "revoked" });
    });

    await case_("wrong password ×N → throttled", async () => {
      const story = await photo(owner);
      const created = await share(owner, {
        target: { kind: "story", libraryId: "product", storyId: story.id },
        password: "right one",
      });
      const answers = new Set<string>();
      // From many addresses: the per-link limit (10 in 15 minutes) stops them all.
      for (let attempt = 0; attempt < 10; attempt++) {
        const guest = visitor();
        guest.session.token = created.token;
        const response = await guest.unlock(`guess ${attempt}`);
        expect(response.statusCode).toBe(401);
        answers.add(response.body);
      }
      expect(answers.size).toBe(1);
      const late = visitor();
      late.session.token = created.token;
      expect((await late.unlock("right one")).statusCode).toBe(429);
      // Locked content stays locked without the session.
      expect((await late.get(`${API_PREFIX}/shared`)).json().data.stories).toEqual([]);
    });

    await case_("a session of one share on another", async () => {
      const one = await share(owner, {
        target: { kind: "story", libraryId: "product", storyId: (await photo(owner)).id },
        password: "pass one",
      });
      const two = await share(owner, {
        target: { kind: "story", libraryId: "product", storyId: (await photo(owner)).id },
        password: "pass two",
      });
      const guest = visitor();
      guest.session.token = one.token;
      guest.session.session = (await guest.unlock("pass one")).json().data.session;
      guest.session.token = two.token;
      expect((await guest.open()).json().data.locked).toBe(true);
    });

    await case_("a file URL for story A changed to story B", async () => {
      const a = await photo(owner);
      const b = await photo(owner);
      const created = await share(owner, { target: { kind: "story", libraryId: "product", storyId: a.id } });
      const guest = visitor();
      guest.session.token = created.token;
      const url: string = (await guest.open()).json().data.stories[0].preview.url;
      const [body, signature] = url.split("/").pop()!.split(".");
      const claims = JSON.parse(Buffer.from(body!, "base64url").toString());
      const forged = Buffer.from(JSON.stringify({ ...claims, s: b.id })).toString("base64url");
      const response = await guest.get(`${API_PREFIX}/shared/files/${forged}.${signature}`);
      expect(response.statusCode).toBe(403);
      expect(response.body).not.toContain("preview of");
      // A user's signed media URL is not a share's.
      const userMedia = (await call(owner, "GET", `/stories/product/${b.id}/media-url?rendition=preview`)).json().data
        .url;
      expect((await guest.get(`${API_PREFIX}/shared/files/${userMedia.split("/").pop()}`)).statusCode).toBe(403);
    });

    await case_("a folder share reaching its parent or a sibling", async () => {
      // The library's manager (an administrator) makes the folders; the owner files photos in them and shares one.
      const parent = (
        await call(admin, "POST", "/libraries/product/folders", { name: `p-${randomBytes(3).toString("hex")}` })
      ).json().data.id;
      const child = (
        await call(admin, "POST", "/libraries/product/folders", { name: "child", parentId: parent })
      ).json().data.id;
      const sibling = (
        await call(admin, "POST", "/libraries/product/folders", { name: "sibling", parentId: parent })
      ).json().data.id;
      const grandchild = (
        await call(admin, "POST", "/libraries/product/folders", { name: "deeper", parentId: child })
      ).json().data.id;
      const inParent = await photo(owner, { folderId: parent, title: "parent" });
      await photo(owner, { folderId: sibling, title: "sibling" });
      await photo(owner, { folderId: child, title: "child" });
      await photo(owner, { folderId: grandchild, title: "grandchild" });
      const created = await share(owner, { target: { kind: "folder", libraryId: "product", folderId: child } });
      const guest = visitor();
      guest.session.token = created.token;
      const opened = (await guest.open()).json().data;
      expect(opened.stories.map((s: { title: string }) => s.title).sort()).toEqual(["child", "grandchild"]);
      expect(JSON.stringify(opened)).not.toContain(inParent.id);
    });

    await case_("views over the limit", async () => {
      const created = await share(owner, {
        target: { kind: "story", libraryId: "product", storyId: (await photo(owner)).id },
        viewLimit: 2,
      });
      const guest = visitor();
      guest.session.token = created.token;
      expect((await guest.open()).statusCode).toBe(200);
      expect((await guest.open()).statusCode).toBe(200);
      gone(await guest.open());
    });

    await case_("downloads over the limit", async () => {
      const created = await share(owner, {
        target: { kind: "story", libraryId: "product", storyId: (await photo(owner)).id },
        downloadLimit: 1,
      });
      const guest = visitor();
      guest.session.token = created.token;
      const url = (await guest.open()).json().data.stories[0].downloadUrl;
      expect((await guest.get(url)).statusCode).toBe(200);
      const second = await guest.get(url);
      expect(second.statusCode).toBe(403);
      expect(second.json().error).toBe("share_download_limit");
    });

    await case_("downloads the share does not allow", async () => {
      const created = await share(owner, {
        target: { kind: "story", libraryId: "product", storyId: (await photo(owner)).id },
        downloadPolicy: "preview",
      });
      const guest = visitor();
      guest.session.token = created.token;
      const shown = (await guest.open()).json().data.stories[0];
      const [body, signature] = shown.downloadUrl.split("/").pop()!.split(".");
      const claims = JSON.parse(Buffer.from(body, "base64url").toString());
      expect(claims.r).toBe("preview");
      const forged = Buffer.from(JSON.stringify({ ...claims, r: "original" })).toString("base64url");
      expect((await guest.get(`${API_PREFIX}/shared/files/${forged}.${signature}`)).statusCode).toBe(403);
    });

    await case_("an owner who lost access", async () => {
      const ownerNow = await createPrincipal(ctx().db, { username: `share-leaver-${address}`, roleId: "editor" });
      const created = await share(ownerNow, {
        target: { kind: "story", libraryId: "product", storyId: (await photo(ownerNow)).id },
      });
      const guest = visitor();
      guest.session.token = created.token;
      expect((await guest.open()).statusCode).toBe(200);
      const noLibraries = await new RolesRepository(ctx().db).insert(
        { name: `no libraries ${address}`, describe: "", status: 1, creatorId: null },
        [],
        new Date().toISOString(),
      );
      await ctx().db.kysely.updateTable("users").set({ role_id: noLibraries }).where("id", "=", ownerNow.id).execute();
      gone(await guest.open());
      await ctx()
        .db.kysely.updateTable("users")
        .set({ role_id: "editor", status: 0 })
        .where("id", "=", ownerNow.id)
        .execute();
      gone(await guest.open());
    });

    await case_("enumeration of tokens", async () => {
      const guest = visitor();
      const bodies = new Set<string>();
      for (let attempt = 0; attempt < 30; attempt++) {
        guest.session.token = randomBytes(32).toString("base64url");
        const response = await guest.open();
        expect(response.statusCode).toBe(410);
        bodies.add(response.body);
      }
      // Unknown, malformed and revoked: the same answer.
      expect(bodies.size).toBe(1);
      expect(JSON.parse([...bodies][0]!).msg).toBe(revokedMessage);
      guest.session.token = randomBytes(32).toString("base64url");
      expect((await guest.open()).statusCode).toBe(429);
      const fresh = visitor();
      expect((await fresh.open()).statusCode).toBe(410);
      expect((await fresh.get(`${API_PREFIX}/shared`, { authorization: owner.headers.authorization })).statusCode).toBe(
        410,
      );
    });

    expect(refused.size).toBe(11);
  });
});
