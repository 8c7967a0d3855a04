import fs from "node:fs";
import path from "node:path";
import type { DetailedError } from "tus-js-client";
import { beforeAll, describe, expect, it } from "vitest";
import { API_PREFIX } from "../../http/error-handler.js";
import { auditSince, lastAuditId } from "../../test/audit.js";
import { describeEachDialect } from "../../test/dialects.js";
import { createPrincipal, type TestPrincipal } from "../../test/principals.js";
import {
  CORPUS,
  createUpload,
  sha256,
  storedBytes,
  tusUpload,
  useRunningApp,
} from "../uploads/uploads.test-support.js";
import { DiskRepository } from "./disk.repository.js";
import { diskName, numberedName } from "./disk-names.js";

const photo = fs.readFileSync(path.join(CORPUS, "jpg/Canon_40D.jpg"));

interface Node {
  id: string;
  name: string;
  kind: string;
  parentId: string | null;
  size: number;
  mime: string | null;
  access: string;
}

describe("disk names", () => {
  it("refuse every way out of a folder and keep ordinary names", () => {
    for (const bad of [
      "",
      " ",
      ".",
      "..",
      "a/b",
      "../x",
      "a\\b",
      "x\u0000y",
      "new\nline",
      "\u202eevil",
      "é".repeat(200),
    ]) {
      expect(() => diskName(bad), JSON.stringify(bad)).toThrow(/name/);
    }
    expect(diskName("  台风 报道.jpg ")).toBe("台风 报道.jpg");
    expect(diskName("..hidden")).toBe("..hidden");
    expect(numberedName("report.pdf", 2)).toBe("report (2).pdf");
    expect(numberedName("notes", 3)).toBe("notes (3)");
  });
});

describeEachDialect("network disk", (dialect) => {
  const { db, running } = useRunningApp(dialect);
  let alice: TestPrincipal;
  let bob: TestPrincipal;
  let carol: TestPrincipal;
  let admin: TestPrincipal;

  async function call<T = unknown>(
    who: TestPrincipal,
    method: string,
    url: string,
    body?: unknown,
    status = 200,
  ): Promise<T> {
    const response = await fetch(`${running().base}${API_PREFIX}${url}`, {
      method,
      headers: { ...who.headers, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    expect(response.status, `${method} ${url}: ${text}`).toBe(status);
    const parsed = JSON.parse(text) as { data: T };
    return (status === 200 ? parsed.data : parsed) as T;
  }

  const upload = (who: TestPrincipal, bytes: Buffer, metadata: Record<string, string>) =>
    tusUpload(running().base, who.token, bytes, { metadata: { target: "disk", ...metadata } });

  beforeAll(async () => {
    alice = await createPrincipal(db(), { username: "disk-alice", roleId: "editor" });
    bob = await createPrincipal(db(), { username: "disk-bob", roleId: "editor" });
    carol = await createPrincipal(db(), { username: "disk-carol", roleId: "viewer" });
    admin = await createPrincipal(db(), { username: "disk-admin", admin: true, roleId: "administrator" });
  });

  it("keeps a folder tree: create, list, rename, move; names that leave a folder or are taken are refused", async () => {
    const before = await lastAuditId(db());
    const work = await call<Node>(alice, "POST", "/disk/folders", { name: "Work" });
    const inner = await call<Node>(alice, "POST", "/disk/folders", { name: "Drafts", parentId: work.id });
    await call(alice, "POST", "/disk/folders", { name: "Work" }, 409);
    for (const name of ["..", "a/b", "..\\x", "."]) {
      const refused = await call<{ error: string }>(alice, "POST", "/disk/folders", { name }, 400);
      expect(refused.error).toBe("invalid_name");
    }
    const root = await call<{ items: Node[] }>(alice, "GET", "/disk/nodes");
    expect(root.items.map((item) => item.name)).toEqual(["Work"]);
    const renamed = await call<Node>(alice, "PATCH", `/disk/nodes/${inner.id}`, { name: "Ideas" });
    expect(renamed.name).toBe("Ideas");
    await call(alice, "PATCH", `/disk/nodes/${work.id}`, { parentId: inner.id }, 400);
    await call<Node>(alice, "PATCH", `/disk/nodes/${inner.id}`, { parentId: null });
    const listed = await call<{ items: Node[]; path: { name: string }[] }>(
      alice,
      "GET",
      `/disk/nodes?folderId=${work.id}`,
    );
    expect(listed.items).toEqual([]);
    expect(listed.path.map((item) => item.name)).toEqual(["Work"]);
    // Someone else's folder is not there for bob.
    await call(bob, "GET", `/disk/nodes?folderId=${work.id}`, undefined, 404);
    await call(bob, "PATCH", `/disk/nodes/${work.id}`, { name: "Mine" }, 404);
    const actions = (await auditSince(db(), before)).map((row) => row.action);
    expect(actions).toEqual(["disk.folder-create", "disk.folder-create", "disk.rename", "disk.move"]);
  });

  it("stores a tus upload with target=disk: bytes, type by content, usage; a name taken is numbered", async () => {
    const folder = await call<Node>(alice, "POST", "/disk/folders", { name: "Uploads" });
    const done = await upload(alice, photo, { filename: "canon.jpg", diskFolderId: folder.id, filetype: "text/html" });
    const file = (done.body.data as unknown as { file: Node }).file;
    expect(file).toMatchObject({ name: "canon.jpg", kind: "file", size: photo.length, mime: "image/jpeg" });
    const again = await upload(alice, photo, { filename: "canon.jpg", diskFolderId: folder.id });
    expect((again.body.data as unknown as { file: Node }).file.name).toBe("canon (2).jpg");
    const text = Buffer.from("<html><script>alert(1)</script></html>");
    const html = (await upload(alice, text, { filename: "page.html" })).body.data as unknown as { file: Node };
    expect(html.file.mime).toBe("application/octet-stream");

    const response = await fetch(`${running().base}${API_PREFIX}/disk/nodes/${file.id}/content`, {
      headers: alice.headers,
    });
    expect(response.status).toBe(200);
    expect(sha256(Buffer.from(await response.arrayBuffer()))).toBe(sha256(photo));
    const page = await fetch(`${running().base}${API_PREFIX}/disk/nodes/${html.file.id}/content?disposition=inline`, {
      headers: alice.headers,
    });
    expect(page.headers.get("content-disposition")).toMatch(/^attachment/);
    expect(page.headers.get("content-security-policy")).toContain("sandbox");

    const usage = await call<{ usedBytes: number }>(alice, "GET", "/disk/usage");
    expect(usage.usedBytes).toBe(photo.length * 2 + text.length);
    const stored = await new DiskRepository(db()).find(file.id);
    expect(stored?.blobKey).toMatch(/^disk\//);
    expect(sha256(await storedBytes(running(), stored!.blobKey!))).toBe(sha256(photo));
  });

  it("answers 413 over the quota, at the upload's creation and on its last byte, and keeps nothing of it", async () => {
    const userId = bob.id;
    await call(bob, "PUT", `/disk/quotas/${userId}`, { quotaBytes: 1000 }, 403);
    const set = await call<{ quotaBytes: number }>(admin, "PUT", `/disk/quotas/${userId}`, {
      quotaBytes: photo.length + 10,
    });
    expect(set.quotaBytes).toBe(photo.length + 10);
    await upload(bob, photo, { filename: "first.jpg" });
    const refused = await upload(bob, photo, { filename: "second.jpg" }).catch((error: DetailedError) => error);
    const response = (refused as DetailedError).originalResponse!;
    expect(response.getStatus()).toBe(413);
    expect(JSON.parse(response.getBody())).toMatchObject({
      error: "disk_quota_exceeded",
      msgCode: "disk.quotaExceeded",
    });

    // Room at the creation, none on the last byte (another upload filled it meanwhile): 413, nothing stored.
    await call(admin, "PUT", `/disk/quotas/${userId}`, { quotaBytes: photo.length * 2 + 10 });
    const late = await createUpload(running().base, bob.token, photo.length, {
      target: "disk",
      filename: "late.jpg",
    });
    await upload(bob, photo, { filename: "filler.jpg" });
    const patch = await fetch(late, {
      method: "PATCH",
      headers: {
        ...bob.headers,
        "tus-resumable": "1.0.0",
        "upload-offset": "0",
        "content-type": "application/offset+octet-stream",
      },
      body: photo,
    });
    expect(patch.status).toBe(413);
    const names = (await call<{ items: Node[] }>(bob, "GET", "/disk/nodes")).items.map((item) => item.name);
    expect(names.sort()).toEqual(["filler.jpg", "first.jpg"]);
    const usage = await call<{ usedBytes: number }>(bob, "GET", "/disk/usage");
    expect(usage.usedBytes).toBe(photo.length * 2);
    const keys: string[] = [];
    for await (const key of (await import("../blobs/build-blob-store.js"))
      .buildBlobStore(running().config.storage)
      .list("disk/"))
      keys.push(key);
    const held = await new DiskRepository(db()).heldBlobKeys(keys);
    expect(keys.filter((key) => !held.has(key))).toEqual([]);
  });

  it("moves to the trash, restores, purges; the maintenance purge takes what is older than 30 days", async () => {
    const folder = await call<Node>(alice, "POST", "/disk/folders", { name: "Old" });
    const done = await upload(alice, photo, { filename: "old.jpg", diskFolderId: folder.id });
    const file = (done.body.data as unknown as { file: Node }).file;
    await call(alice, "DELETE", `/disk/nodes/${folder.id}`);
    await call(alice, "GET", `/disk/nodes?folderId=${folder.id}`, undefined, 404);
    await call(alice, "GET", `/disk/nodes/${file.id}/content`, undefined, 404);
    const trash = await call<Node[]>(alice, "GET", "/disk/trash");
    expect(trash.map((item) => item.name)).toContain("Old");
    await call(bob, "POST", `/disk/trash/${folder.id}/restore`, undefined, 404);
    await call<Node>(alice, "POST", "/disk/folders", { name: "Old" });
    const restored = await call<Node>(alice, "POST", `/disk/trash/${folder.id}/restore`);
    expect(restored.name).toBe("Old (2)");
    const inside = await call<{ items: Node[] }>(alice, "GET", `/disk/nodes?folderId=${folder.id}`);
    expect(inside.items.map((item) => item.name)).toEqual(["old.jpg"]);

    await call(alice, "DELETE", `/disk/nodes/${folder.id}`);
    const repository = new DiskRepository(db());
    const key = (await repository.find(file.id))!.blobKey!;
    const { buildBlobStore } = await import("../blobs/build-blob-store.js");
    const store = buildBlobStore(running().config.storage);
    expect(await store.stat(key)).not.toBeNull();
    const { DiskService } = await import("./disk.service.js");
    const { DiskAccess } = await import("./disk-access.js");
    const { buildAudit } = await import("../audit/audit.compose.js");
    const service = new DiskService({
      nodes: repository,
      access: new DiskAccess(repository),
      blobs: store,
      audit: buildAudit(db()).log,
    });
    expect(await service.purgeExpiredTrash(new Date(Date.now() + 29 * 86_400_000))).toBe(0);
    expect(await service.purgeExpiredTrash(new Date(Date.now() + 31 * 86_400_000))).toBeGreaterThanOrEqual(1);
    expect(await repository.find(file.id)).toBeUndefined();
    expect(await store.stat(key)).toBeNull();
  });

  it("shares a folder with a colleague, a role or everyone, never its parent or siblings; revoked, it is gone", async () => {
    const parent = await call<Node>(alice, "POST", "/disk/folders", { name: "Desk" });
    const shared = await call<Node>(alice, "POST", "/disk/folders", { name: "For Bob", parentId: parent.id });
    const sibling = await call<Node>(alice, "POST", "/disk/folders", { name: "Private", parentId: parent.id });
    const done = await upload(alice, photo, { filename: "pic.jpg", diskFolderId: shared.id });
    const file = (done.body.data as unknown as { file: Node }).file;

    // A viewer lacks share.netdisk: sharing is refused to them.
    const carolFolder = await call<Node>(carol, "POST", "/disk/folders", { name: "Mine" });
    await call(
      carol,
      "POST",
      `/disk/nodes/${carolFolder.id}/shares`,
      { grantee: { kind: "everyone" }, level: "view" },
      403,
    );
    // Only the owner shares.
    await call(bob, "POST", `/disk/nodes/${shared.id}/shares`, { grantee: { kind: "everyone" }, level: "view" }, 404);
    await call(
      alice,
      "POST",
      `/disk/nodes/${shared.id}/shares`,
      { grantee: { kind: "user", username: "nobody" }, level: "view" },
      400,
    );

    const share = await call<{ id: string; granteeName: string }>(alice, "POST", `/disk/nodes/${shared.id}/shares`, {
      grantee: { kind: "user", username: "disk-bob" },
      level: "view",
    });
    expect(share.granteeName).toBe("disk-bob");
    const mine = await call<{ granteeName: string }[]>(bob, "GET", "/disk/shared-with-me");
    expect(mine).toMatchObject([{ level: "view", ownerName: "disk-alice", node: { id: shared.id, name: "For Bob" } }]);
    const listing = await call<{ items: Node[]; path: { name: string }[] }>(
      bob,
      "GET",
      `/disk/nodes?folderId=${shared.id}`,
    );
    expect(listing.items.map((item) => item.name)).toEqual(["pic.jpg"]);
    expect(listing.path.map((item) => item.name)).toEqual(["For Bob"]);
    // View: a preview, no download, no change.
    const preview = await fetch(`${running().base}${API_PREFIX}/disk/nodes/${file.id}/content?disposition=inline`, {
      headers: bob.headers,
    });
    expect(preview.status).toBe(200);
    await call(bob, "GET", `/disk/nodes/${file.id}/content`, undefined, 403);
    await call(bob, "PATCH", `/disk/nodes/${file.id}`, { name: "x.jpg" }, 403);
    // Never the parent or a sibling.
    await call(bob, "GET", `/disk/nodes?folderId=${parent.id}`, undefined, 404);
    await call(bob, "GET", `/disk/nodes?folderId=${sibling.id}`, undefined, 404);
    await call(bob, "PATCH", `/disk/nodes/${file.id}`, { parentId: sibling.id }, 403);

    // Edit: bob uploads into it (alice's space) and renames.
    await call(alice, "POST", `/disk/nodes/${shared.id}/shares`, {
      grantee: { kind: "user", username: "disk-bob" },
      level: "edit",
    });
    const fromBob = await upload(bob, photo, { filename: "from-bob.jpg", diskFolderId: shared.id });
    expect((fromBob.body.data as unknown as { file: Node }).file.access).toBe("edit");
    await call(bob, "PATCH", `/disk/nodes/${file.id}`, { name: "renamed.jpg" });
    await call(bob, "PATCH", `/disk/nodes/${file.id}`, { parentId: sibling.id }, 404);
    // A role, and everyone.
    await call(alice, "POST", `/disk/nodes/${sibling.id}/shares`, {
      grantee: { kind: "role", roleId: "viewer" },
      level: "download",
    });
    expect((await call<{ node: Node }[]>(carol, "GET", "/disk/shared-with-me")).map((item) => item.node.name)).toEqual([
      "Private",
    ]);
    const everyone = await call<{ id: string }>(alice, "POST", `/disk/nodes/${parent.id}/shares`, {
      grantee: { kind: "everyone" },
      level: "view",
    });
    expect((await call<Node[]>(alice, "GET", "/disk/shares")).length).toBe(3);

    await call(carol, "DELETE", `/disk/shares/${share.id}`, undefined, 404);
    await call(alice, "DELETE", `/disk/shares/${share.id}`);
    await call(alice, "DELETE", `/disk/shares/${everyone.id}`);
    await call(bob, "GET", `/disk/nodes?folderId=${shared.id}`, undefined, 404);
    expect(await call<unknown[]>(bob, "GET", "/disk/shared-with-me")).toEqual([]);
  });

  it("sends disk files to a library through the ingest command, and saves a story's original to the disk", async () => {
    const done = await upload(alice, photo, { filename: "to-library.jpg" });
    const file = (done.body.data as unknown as { file: Node }).file;
    const note = (await upload(alice, Buffer.from("just text"), { filename: "note.txt" })).body.data as unknown as {
      file: Node;
    };
    await call(carol, "POST", "/disk/send-to-library", { nodeIds: [file.id], libraryId: "product" }, 403);
    const sent = await call<{ story?: { libraryId: string; storyId: string }; error?: { code: string } }[]>(
      alice,
      "POST",
      "/disk/send-to-library",
      { nodeIds: [file.id, note.file.id], libraryId: "product" },
    );
    expect(sent[0]!.story?.libraryId).toBe("product");
    expect(sent[1]!.error?.code).toBe("unsupported_file_type");
    // The disk keeps its file.
    const kept = await fetch(`${running().base}${API_PREFIX}/disk/nodes/${file.id}/content`, {
      headers: alice.headers,
    });
    expect(kept.status).toBe(200);

    const saved = await call<Node>(alice, "POST", "/disk/from-story", {
      libraryId: "product",
      storyId: sent[0]!.story!.storyId,
    });
    expect(saved).toMatchObject({ kind: "file", size: photo.length, mime: "image/jpeg" });
    expect(saved.name).toMatch(/\.jpg$/);
  });

  it("lets the storage settings' permission pick a user and set the quota, without the admin flag", async () => {
    // The administrator role without users.admin: manage.storage.setting, not the user administration.
    const manager = await createPrincipal(db(), { username: "disk-quota-manager", roleId: "administrator" });
    const picked = await call<Record<string, unknown>[]>(manager, "GET", "/disk/quota-users?keyword=disk-b");
    expect(picked).toMatchObject([{ id: bob.id, username: "disk-bob" }]);
    // Nothing but what the picker shows.
    expect(Object.keys(picked[0]!).sort()).toEqual(["id", "name", "username"]);
    expect(await call<unknown[]>(manager, "GET", "/disk/quota-users?keyword=no-such-user")).toEqual([]);
    await call(manager, "GET", "/disk/quota-users?size=51", undefined, 400);
    const set = await call<{ quotaBytes: number }>(manager, "PUT", `/disk/quotas/${bob.id}`, {
      quotaBytes: 5 * 2 ** 30,
    });
    expect(set.quotaBytes).toBe(5 * 2 ** 30);
    expect(await call(manager, "GET", `/disk/quotas/${bob.id}`)).toMatchObject({ quotaBytes: 5 * 2 ** 30 });
    await call(bob, "GET", "/disk/quota-users", undefined, 403);
  });
});
