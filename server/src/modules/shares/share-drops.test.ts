import fs from "node:fs";
import path from "node:path";
import * as tus from "tus-js-client";
import { afterAll, beforeAll, expect, it } from "vitest";
import { API_PREFIX } from "../../http/error-handler.js";
import { describeEachDialect, useTestDb } from "../../test/dialects.js";
import { createPrincipal, type TestPrincipal } from "../../test/principals.js";
import { RolesRepository } from "../access/roles.repository.js";
import {
  CORPUS,
  type RunningApp,
  sha256,
  startApp,
  storedBytes,
  temporaryDataDir,
  UPLOADS,
} from "../uploads/uploads.test-support.js";

const DROP = `${API_PREFIX}/shared/uploads`;
const canon = fs.readFileSync(path.join(CORPUS, "jpg/Canon_40D.jpg"));
const nokia = fs.readFileSync(path.join(CORPUS, "jpg/mobile/HMD_Nokia_8.3_5G.jpg"));

function encodeMetadata(metadata: Record<string, string>): string {
  return Object.entries(metadata)
    .map(([key, value]) => `${key} ${Buffer.from(value).toString("base64")}`)
    .join(",");
}

interface Dropped {
  status: number;
  url: string;
  body: { code: number; data: { dropped: { name: string; size: number; mime: string }; upload: { id: string } } };
}

/**
 * The upload drop of share links (docs/sharing.md, "Upload drop"), over
 * HTTP with tus-js-client as a visitor's browser sends it: each refusal
 * (counted in `refused`), resuming after a cut connection, the draft's owner,
 * folder and author, the visitor log in the draft's transaction, and that
 * visitors never see drafts in a folder share.
 */
describeEachDialect("share upload drop", (dialect) => {
  const db = useTestDb(dialect);
  const dataDir = temporaryDataDir();
  let running: RunningApp;
  let owner: TestPrincipal;
  let admin: TestPrincipal;
  let folderId: string;
  const refused = new Set<string>();
  let address = 0;

  beforeAll(async () => {
    running = await startApp(db(), dataDir, {
      DAMS_UPLOAD_MAX_BYTES: String(4 * 1024 * 1024),
      DAMS_TRUST_PROXY: "true",
    });
    owner = await createPrincipal(db(), { username: "drop-owner", roleId: "editor" });
    admin = await createPrincipal(db(), { username: "drop-admin", roleId: "administrator", admin: true });
    const folder = await call(admin, "POST", "/libraries/product/folders", { name: "读者来稿" });
    expect(folder.status).toBe(200);
    folderId = ((await folder.json()) as { data: { id: string } }).data.id;
  });
  afterAll(async () => {
    console.log(`share drop abuse cases refused [${dialect}]: ${refused.size} (${[...refused].sort().join(", ")})`);
    await running.app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  function call(who: TestPrincipal, method: string, url: string, body?: unknown) {
    return fetch(`${running.base}${API_PREFIX}${url}`, {
      method,
      headers: { ...who.headers, ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
  }

  async function share(body: object, who = owner): Promise<{ id: string; token: string }> {
    const response = await call(who, "POST", "/shares", {
      target: { kind: "folder", libraryId: "product", folderId },
      ...body,
    });
    const json = (await response.json()) as { data: { id: string; token: string } };
    expect(response.status, JSON.stringify(json)).toBe(200);
    return json.data;
  }

  /** A visitor from an address of its own (the guessing throttle counts per address). */
  function visitor(token: string, session?: string) {
    const forwarded = `10.9.${Math.floor(++address / 250)}.${(address % 250) + 1}`;
    const headers: Record<string, string> = {
      "x-share-token": token,
      "x-forwarded-for": forwarded,
      ...(session ? { "x-share-session": session } : {}),
    };
    return {
      headers,
      open: () => fetch(`${running.base}${API_PREFIX}/shared`, { headers }),
      drop: (file: Buffer, metadata: Record<string, string>, uploadUrl?: string) =>
        new Promise<Dropped>((resolve, reject) => {
          const upload = new tus.Upload(file, {
            endpoint: `${running.base}${DROP}`,
            headers,
            metadata,
            ...(uploadUrl ? { uploadUrl } : {}),
            retryDelays: null,
            onError: reject,
            onSuccess: ({ lastResponse }) =>
              resolve({ status: lastResponse.getStatus(), url: upload.url!, body: JSON.parse(lastResponse.getBody()) }),
          });
          upload.start();
        }),
      create: (length: number, metadata: Record<string, string>) =>
        fetch(`${running.base}${DROP}`, {
          method: "POST",
          headers: {
            ...headers,
            "tus-resumable": "1.0.0",
            "upload-length": String(length),
            "upload-metadata": encodeMetadata(metadata),
          },
        }),
    };
  }

  async function refusedWith(response: Response, status: number, error: string, label: string) {
    const body = (await response.json()) as { error: string };
    expect(response.status, JSON.stringify(body)).toBe(status);
    expect(body.error).toBe(error);
    refused.add(label);
  }

  it("a visitor's file becomes a draft in the owner's folder with the visitor as author, counted and logged", async () => {
    const created = await share({ uploadDrop: { libraryId: "product", folderId, maxFiles: 5, maxBytes: 1_000_000 } });
    const listed = await call(owner, "GET", "/shares");
    const item = (
      (await listed.json()) as { data: { content: { id: string; uploadDrop: unknown }[] } }
    ).data.content.find((row) => row.id === created.id);
    expect(item?.uploadDrop).toEqual({
      libraryId: "product",
      folderId,
      folderName: "读者来稿",
      maxFiles: 5,
      maxBytes: 1_000_000,
      files: 0,
    });
    const guest = visitor(created.token);
    const page = (await (await guest.open()).json()) as { data: { uploadDrop: unknown } };
    expect(page.data.uploadDrop).toEqual({ maxFiles: 5, maxBytes: 1_000_000, files: 0 });

    const done = await guest.drop(canon, {
      filename: "现场 Canon.jpg",
      visitorName: "  王芳  ",
      filetype: "text/html",
    });
    expect(done.status).toBe(200);
    expect(done.body.data.dropped).toEqual({ name: "现场 Canon.jpg", size: canon.length, mime: "image/jpeg" });

    const story = await db()
      .kysely.selectFrom("stories")
      .selectAll()
      .where("original_name", "=", "现场 Canon.jpg")
      .executeTakeFirstOrThrow();
    expect(story).toMatchObject({ library_id: "product", folder_id: folderId, status: "draft", created_by: owner.id });
    expect(db().adapter.readJson(story.authors as string)).toEqual(["王芳"]);
    expect(story.content_sha256).toBe(sha256(canon));
    const blob = await db()
      .kysely.selectFrom("blobs")
      .selectAll()
      .where("sha256", "=", sha256(canon))
      .executeTakeFirst();
    expect(sha256(await storedBytes(running, blob!.key))).toBe(sha256(canon));

    const visits = await db()
      .kysely.selectFrom("share_visits")
      .selectAll()
      .where("share_id", "=", created.id)
      .execute();
    expect(visits.find((visit) => visit.action === "upload")).toMatchObject({
      story_id: story.id,
      visitor_name: "王芳",
      address: expect.stringMatching(/^(10\.9\.|127\.0\.0\.1|::)/),
    });
    const row = await db()
      .kysely.selectFrom("shares")
      .selectAll()
      .where("id", "=", created.id)
      .executeTakeFirstOrThrow();
    expect(Number(row.drop_files)).toBe(1);
    const audit = await db()
      .kysely.selectFrom("audit_log")
      .selectAll()
      .where("action", "=", "share.upload")
      .where("target_id", "=", created.id)
      .execute();
    expect(audit).toHaveLength(1);

    // The owner reads it in the visitor log, with the visitor's name and the draft's title.
    const log = await call(owner, "GET", `/shares/${created.id}/visits`);
    const logged = ((await log.json()) as { data: { content: Record<string, unknown>[] } }).data.content;
    expect(logged[0]).toMatchObject({ action: "upload", visitorName: "王芳", storyId: story.id });

    // Visitors never see drafts in a folder share — the dropped file, nor the owner's own.
    const before = (await (await guest.open()).json()) as { data: { stories: { storyId: string }[] } };
    expect(before.data.stories.map((shown) => shown.storyId)).not.toContain(story.id);
    refused.add("a dropped draft listed to visitors");
    // Once the owner commits it, it is part of the folder like any story.
    const committed = await call(owner, "POST", "/workflow-story-create/photo/commit", {
      libraryId: "product",
      storyIds: [story.id],
    });
    expect(committed.status).toBe(200);
    const after = (await (await guest.open()).json()) as { data: { stories: { storyId: string }[] } };
    expect(after.data.stories.map((shown) => shown.storyId)).toContain(story.id);
  });

  it("resumes a drop after the connection is cut, and HEAD on a finished drop answers complete", async () => {
    const created = await share({ uploadDrop: { libraryId: "product", folderId } });
    const guest = visitor(created.token);
    const made = await guest.create(nokia.length, { filename: "nokia.jpg", visitorName: "Li Lei" });
    expect(made.status).toBe(201);
    const url = new URL(made.headers.get("location")!, running.base).toString();
    expect(url).toContain(`${DROP}/`);
    await interruptedPatchAs(url, guest.headers, nokia, 200_000);
    const head = await fetch(url, { method: "HEAD", headers: { ...guest.headers, "tus-resumable": "1.0.0" } });
    expect(head.status).toBe(200);
    const offset = Number(head.headers.get("upload-offset"));
    expect(offset).toBeGreaterThan(0);
    expect(offset).toBeLessThan(nokia.length);
    const done = await guest.drop(nokia, { filename: "nokia.jpg", visitorName: "Li Lei" }, url);
    expect(done.body.data.dropped.size).toBe(nokia.length);
    const stories = await db()
      .kysely.selectFrom("stories")
      .selectAll()
      .where("original_name", "=", "nokia.jpg")
      .execute();
    expect(stories).toHaveLength(1);
    expect(stories[0]!.content_sha256).toBe(sha256(nokia));
    const again = await fetch(url, { method: "HEAD", headers: { ...guest.headers, "tus-resumable": "1.0.0" } });
    expect(again.status).toBe(200);
    expect(Number(again.headers.get("upload-offset"))).toBe(nokia.length);

    // Another share's visitor, and a signed-in user on the users' door, cannot touch it.
    const elsewhere = await share({ uploadDrop: { libraryId: "product", folderId } });
    const stranger = visitor(elsewhere.token);
    const theirs = await stranger.create(nokia.length, { filename: "x.jpg", visitorName: "X" });
    const theirUrl = new URL(theirs.headers.get("location")!, running.base).toString();
    const across = await fetch(theirUrl, { method: "HEAD", headers: { ...guest.headers, "tus-resumable": "1.0.0" } });
    expect(across.status).toBe(404);
    refused.add("another share's upload");
  });

  /** A PATCH cut after `bytes` bytes, with the visitor's headers. */
  async function interruptedPatchAs(url: string, headers: Record<string, string>, file: Buffer, bytes: number) {
    const { request } = await import("node:http");
    await new Promise<void>((resolve) => {
      const req = request(url, {
        method: "PATCH",
        headers: {
          ...headers,
          "tus-resumable": "1.0.0",
          "upload-offset": "0",
          "content-type": "application/offset+octet-stream",
          "content-length": String(file.length),
        },
      });
      req.on("error", () => resolve());
      req.on("response", (response) => {
        response.resume();
        resolve();
      });
      req.write(file.subarray(0, bytes), () => setTimeout(() => req.destroy(), 50));
    });
  }

  it("refuses: no name, too large before any byte, no drop, full, owner without write, revoked, expired, used up, locked, not a file we take", async () => {
    const created = await share({
      uploadDrop: { libraryId: "product", folderId, maxFiles: 1, maxBytes: canon.length },
    });
    const guest = visitor(created.token);
    await refusedWith(await guest.create(canon.length, { filename: "a.jpg" }), 400, "visitor_name_required", "no name");
    await refusedWith(
      await guest.create(canon.length + 1, { filename: "a.jpg", visitorName: "W" }),
      413,
      "share_drop_too_large",
      "over the size limit",
    );
    // Sniffed like every upload: text is not a file the drop takes (and counts nothing).
    await expect(guest.drop(Buffer.from("<html>not a photo</html>"), { visitorName: "W" })).rejects.toMatchObject({
      originalResponse: expect.anything(),
    });
    refused.add("content refused by sniffing");
    await guest.drop(canon, { filename: "one.jpg", visitorName: "W" });
    await refusedWith(await guest.create(10, { visitorName: "W" }), 403, "share_drop_full", "drop full");
    const full = (await (await guest.open()).json()) as { data: { uploadDrop: unknown } };
    expect(full.data.uploadDrop).toEqual({ maxFiles: 1, maxBytes: canon.length, files: 1 });

    const plain = await share({});
    await refusedWith(await visitor(plain.token).create(10, { visitorName: "W" }), 403, "share_drop_off", "no drop");

    // The owner loses write access to the folder's library (reading it still): the drop stops, the share still opens.
    const loser = await createPrincipal(db(), { username: `drop-loser-${dialect}`, roleId: "editor" });
    const lost = await share({ uploadDrop: { libraryId: "product", folderId } }, loser);
    const readOnly = await new RolesRepository(db()).insert(
      { name: `read only ${dialect}`, describe: "", status: 1, creatorId: null },
      [],
      new Date().toISOString(),
    );
    await db()
      .kysely.insertInto("library_grants")
      .values({
        id: crypto.randomUUID(),
        library_id: "product",
        role_id: readOnly,
        user_id: null,
        level: "read",
        created_at: new Date().toISOString(),
      })
      .execute();
    await db().kysely.updateTable("users").set({ role_id: readOnly }).where("id", "=", loser.id).execute();
    const lostVisitor = visitor(lost.token);
    await refusedWith(
      await lostVisitor.create(10, { visitorName: "W" }),
      403,
      "share_drop_forbidden",
      "owner lost write",
    );
    const lostPage = (await (await lostVisitor.open()).json()) as { data: { uploadDrop: unknown } };
    expect(lostPage.data.uploadDrop).toBeNull();

    const revoked = await share({ uploadDrop: { libraryId: "product", folderId } });
    expect((await call(owner, "DELETE", `/shares/${revoked.id}`)).status).toBe(200);
    await refusedWith(
      await visitor(revoked.token).create(10, { visitorName: "W" }),
      410,
      "share_unavailable",
      "revoked",
    );

    const expired = await share({ uploadDrop: { libraryId: "product", folderId } });
    await db()
      .kysely.updateTable("shares")
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where("id", "=", expired.id)
      .execute();
    await refusedWith(
      await visitor(expired.token).create(10, { visitorName: "W" }),
      410,
      "share_unavailable",
      "expired",
    );

    const usedUp = await share({ viewLimit: 1, uploadDrop: { libraryId: "product", folderId } });
    expect((await visitor(usedUp.token).open()).status).toBe(200);
    await refusedWith(
      await visitor(usedUp.token).create(10, { visitorName: "W" }),
      410,
      "share_unavailable",
      "used up",
    );

    const locked = await share({ password: "drop box", uploadDrop: { libraryId: "product", folderId } });
    await refusedWith(
      await visitor(locked.token).create(10, { visitorName: "W" }),
      401,
      "share_locked",
      "before the password",
    );
    const unlocked = await fetch(`${running.base}${API_PREFIX}/shared/unlock`, {
      method: "POST",
      headers: { "x-share-token": locked.token, "content-type": "application/json" },
      body: JSON.stringify({ password: "drop box" }),
    });
    const session = ((await unlocked.json()) as { data: { session: string } }).data.session;
    const done = await visitor(locked.token, session).drop(canon, { filename: "after.jpg", visitorName: "W" });
    expect(done.status).toBe(200);

    // A signed-in user cannot send a file to a drop through their own door.
    const own = await fetch(`${running.base}${UPLOADS}`, {
      method: "POST",
      headers: {
        ...owner.headers,
        "tus-resumable": "1.0.0",
        "upload-length": "10",
        "upload-metadata": encodeMetadata({ target: "share-drop", visitorName: "W" }),
      },
    });
    await refusedWith(own, 400, "invalid", "a user's upload aimed at a drop");

    // Nothing refused became a story, and the full drop counted only its one file.
    const row = await db()
      .kysely.selectFrom("shares")
      .selectAll()
      .where("id", "=", created.id)
      .executeTakeFirstOrThrow();
    expect(Number(row.drop_files)).toBe(1);
  });

  it("throttles guessed tokens on the drop like every visitor call", async () => {
    const guesser = `10.99.0.${dialect === "sqlite" ? 1 : 2}`;
    let last: Response | undefined;
    for (let index = 0; index < 31; index++) {
      last = await fetch(`${running.base}${DROP}`, {
        method: "POST",
        headers: {
          "x-share-token": Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url"),
          "x-forwarded-for": guesser,
          "tus-resumable": "1.0.0",
          "upload-length": "10",
        },
      });
      if (index < 30) expect(last.status).toBe(410);
    }
    await refusedWith(last!, 429, "too_many_attempts", "guessing tokens on the drop");
  });
});
