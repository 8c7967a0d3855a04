import fs from "node:fs";
import path from "node:path";
import { beforeAll, expect, it } from "vitest";
import { fetchApi } from "../../test/api-call.js";
import { auditSince, lastAuditId } from "../../test/audit.js";
import { describeEachDialect } from "../../test/dialects.js";
import { createPrincipal, type TestPrincipal } from "../../test/principals.js";
import { CORPUS, useRunningApp } from "../uploads/uploads.test-support.js";

const photo = fs.readFileSync(path.join(CORPUS, "jpg/Canon_40D.jpg"));

function basic(who: TestPrincipal): { authorization: string } {
  return { authorization: `Basic ${Buffer.from(`${who.username}:${who.token}`).toString("base64")}` };
}

interface Listed {
  href: string;
  collection: boolean;
  length?: number;
  etag?: string;
  modified?: string;
}

/** The responses of a multistatus, by href (enough of it for these tests). */
function responsesOf(xml: string): Listed[] {
  return [...xml.matchAll(/<D:response>(.*?)<\/D:response>/gs)].map(([, body = ""]) => ({
    href: decodeURIComponent(/<D:href>(.*?)<\/D:href>/.exec(body)?.[1] ?? ""),
    collection: body.includes("<D:collection/>"),
    length: /<D:getcontentlength>(\d+)</.exec(body)?.[1]
      ? Number(/<D:getcontentlength>(\d+)</.exec(body)?.[1])
      : undefined,
    etag: /<D:getetag>(.*?)<\/D:getetag>/.exec(body)?.[1]?.replaceAll("&#34;", '"').replaceAll("&quot;", '"'),
    modified: /<D:getlastmodified>(.*?)<\/D:getlastmodified>/.exec(body)?.[1],
  }));
}

describeEachDialect("WebDAV's other mounts: the readable libraries and shared with me", (dialect) => {
  const { db, running } = useRunningApp(dialect);
  let alice: TestPrincipal;
  let bob: TestPrincipal;
  let carol: TestPrincipal;
  let admin: TestPrincipal;
  const secretLibrary = "davsecret";
  const secretName = `Secret desk ${dialect}`;
  /** Alice's stories in product's folder "Harbour": two of one title, and a draft. */
  const harbour: { committed: string[]; draft: string; unfiled: string; secret: string } = {
    committed: [],
    draft: "",
    unfiled: "",
    secret: "",
  };
  let productName = "";

  const dav = (
    who: TestPrincipal,
    method: string,
    url: string,
    init: { headers?: Record<string, string>; body?: Uint8Array | string } = {},
  ) =>
    fetch(`${running().base}${url}`, {
      method,
      headers: { ...basic(who), ...init.headers },
      body: init.body as BodyInit | undefined,
    });

  const api = <T>(who: TestPrincipal, method: string, url: string, body?: unknown) =>
    fetchApi<T>(running().base, who, method, url, body);

  async function listing(who: TestPrincipal, url: string): Promise<Listed[]> {
    const response = await dav(who, "PROPFIND", url, { headers: { depth: "1" } });
    expect(response.status, url).toBe(207);
    return responsesOf(await response.text());
  }

  /** A story from a disk file `harbour.jpg` sent to a library (the ingest command), committed unless `draft`. */
  async function story(who: TestPrincipal, libraryId: string, folderId: string | null, draft = false) {
    const folder = `send-${Math.random().toString(36).slice(2)}`;
    expect((await dav(who, "MKCOL", `/dav/${folder}`)).status).toBe(201);
    expect((await dav(who, "PUT", `/dav/${folder}/harbour.jpg`, { body: photo })).status).toBe(201);
    const parent = (await api<{ items: { id: string; name: string }[] }>(who, "GET", "/disk/nodes")).items.find(
      (item) => item.name === folder,
    );
    const [node] = (await api<{ items: { id: string }[] }>(who, "GET", `/disk/nodes?folderId=${parent?.id}`)).items;
    const [sent] = await api<{ story?: { storyId: string } }[]>(who, "POST", "/disk/send-to-library", {
      nodeIds: [node?.id],
      libraryId,
      folderId,
    });
    const storyId = sent?.story?.storyId ?? "";
    expect(storyId).not.toBe("");
    if (!draft) await api(who, "POST", "/workflow-story-create/photo/commit", { libraryId, storyIds: [storyId] });
    return storyId;
  }

  beforeAll(async () => {
    alice = await createPrincipal(db(), { username: `mount-alice-${dialect}`, roleId: "contributor" });
    bob = await createPrincipal(db(), { username: `mount-bob-${dialect}`, roleId: "editor" });
    carol = await createPrincipal(db(), { username: `mount-carol-${dialect}`, roleId: "editor" });
    admin = await createPrincipal(db(), { username: `mount-admin-${dialect}`, admin: true, roleId: "administrator" });
    await api(admin, "POST", "/library-settings", { id: secretLibrary, name: secretName });
    const folder = await api<{ id: string }>(admin, "POST", "/libraries/product/folders", { name: "Harbour" });
    harbour.committed.push(await story(alice, "product", folder.id));
    harbour.committed.push(await story(alice, "product", folder.id));
    harbour.draft = await story(alice, "product", folder.id, true);
    harbour.unfiled = await story(alice, "product", null);
    harbour.secret = await story(admin, secretLibrary, null);
    productName = (await api<{ id: string; name: string }[]>(alice, "GET", "/libraries")).find(
      (library) => library.id === "product",
    )!.name;
  }, 120_000);

  it("lists the libraries the caller may read, their folders and their committed stories' originals as files", async () => {
    const top = await listing(alice, "/dav-libraries/");
    expect(top[0]).toMatchObject({ href: "/dav-libraries/", collection: true });
    const names = top.slice(1).map((entry) => entry.href);
    expect(names).toContain(`/dav-libraries/${productName}/`);
    // Alice (a contributor) has no grant on the secret library: it is not there.
    expect(names.some((href) => href.includes(secretName))).toBe(false);

    const product = await listing(alice, `/dav-libraries/${encodeURIComponent(productName)}/`);
    const harbourFolder = product.find((entry) => entry.href === `/dav-libraries/${productName}/Harbour/`);
    expect(harbourFolder?.collection).toBe(true);
    // The unfiled committed story is at the library's top, as a file.
    expect(product.filter((entry) => !entry.collection).length).toBeGreaterThanOrEqual(1);

    const files = (await listing(alice, `/dav-libraries/${encodeURIComponent(productName)}/Harbour/`)).slice(1);
    // Two committed stories of one title: two names, the second with its id's first 8 characters; the draft is not there.
    expect(files).toHaveLength(2);
    const [first, second] = files.map((entry) => path.posix.basename(entry.href));
    expect(first).toMatch(/\.jpg$/);
    expect(second).not.toBe(first);
    expect([first, second].some((name) => name?.includes(` (${harbour.committed[1]!.slice(0, 8)}).jpg`))).toBe(true);
    for (const entry of files) {
      expect(entry).toMatchObject({ collection: false, length: photo.length });
      expect(entry.etag).toMatch(/^"/);
      expect(Number.isNaN(Date.parse(entry.modified ?? ""))).toBe(false);
    }
    // The names are the same on the next listing.
    const again = (await listing(alice, `/dav-libraries/${encodeURIComponent(productName)}/Harbour/`)).slice(1);
    expect(again.map((entry) => entry.href)).toEqual(files.map((entry) => entry.href));

    // Depth 0 on a file answers that file.
    const one = await dav(alice, "PROPFIND", files[0]!.href.split("/").map(encodeURIComponent).join("/"), {
      headers: { depth: "0" },
    });
    expect(one.status).toBe(207);
    expect(responsesOf(await one.text())).toMatchObject([{ collection: false, length: photo.length }]);
  });

  it("serves a file with GET, one Range and HEAD, and records a whole download", async () => {
    const files = (await listing(alice, `/dav-libraries/${encodeURIComponent(productName)}/Harbour/`)).slice(1);
    const url = files[0]!.href.split("/").map(encodeURIComponent).join("/");
    const before = await lastAuditId(db());
    const got = await dav(alice, "GET", url);
    expect(got.status).toBe(200);
    expect(got.headers.get("x-content-type-options")).toBe("nosniff");
    expect(Buffer.from(await got.arrayBuffer()).equals(photo)).toBe(true);
    const ranged = await dav(alice, "GET", url, { headers: { range: "bytes=10-19" } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get("content-range")).toBe(`bytes 10-19/${photo.length}`);
    expect(Buffer.from(await ranged.arrayBuffer()).equals(photo.subarray(10, 20))).toBe(true);
    const head = await dav(alice, "HEAD", url);
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe(String(photo.length));
    expect(head.headers.get("etag")).toBe(files[0]!.etag);
    expect(await head.text()).toBe("");
    // Only the whole GET is a download, as on the pages (not the range from byte 10, not HEAD).
    const downloads = async () =>
      (await auditSince(db(), before)).filter((row) => row.action === "story.download").map((row) => row.actorName);
    await expect.poll(downloads).toEqual([alice.username]);
  });

  it("answers every change in the libraries 403 with a clear message, and changes nothing", async () => {
    const base = `/dav-libraries/${encodeURIComponent(productName)}`;
    const files = (await listing(alice, `${base}/Harbour/`)).slice(1);
    const file = files[0]!.href.split("/").map(encodeURIComponent).join("/");
    const lockBody =
      '<?xml version="1.0"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockinfo>';
    const patch =
      '<?xml version="1.0"?><D:propertyupdate xmlns:D="DAV:" xmlns:Z="urn:x"><D:set><D:prop><Z:a>1</Z:a></D:prop></D:set></D:propertyupdate>';
    const attempts: [string, string, { headers?: Record<string, string>; body?: string | Uint8Array }][] = [
      ["PUT", `${base}/Harbour/new.jpg`, { body: photo }],
      ["PUT", file, { body: "overwrite" }],
      ["DELETE", file, {}],
      ["DELETE", `${base}/Harbour/`, {}],
      ["MKCOL", `${base}/New folder`, {}],
      ["MOVE", file, { headers: { destination: `${running().base}${base}/moved.jpg` } }],
      ["COPY", file, { headers: { destination: `${running().base}${base}/copied.jpg` } }],
      ["PROPPATCH", file, { body: patch }],
      ["LOCK", file, { body: lockBody }],
      ["UNLOCK", file, { headers: { "lock-token": "<opaquelocktoken:x>" } }],
      ["PUT", "/dav-libraries/new.txt", { body: "x" }],
    ];
    for (const [method, url, init] of attempts) {
      const response = await dav(bob, method, url, init);
      expect(response.status, `${method} ${url}`).toBe(403);
      expect((await response.json()) as unknown, `${method} ${url}`).toMatchObject({
        error: "dav_read_only",
        msg: expect.stringContaining("read-only"),
      });
    }
    // A COPY or MOVE from the disk into the libraries: 403 too.
    expect((await dav(bob, "PUT", "/dav/mine.txt", { body: "mine" })).status).toBe(201);
    for (const method of ["COPY", "MOVE"]) {
      const response = await dav(bob, method, "/dav/mine.txt", {
        headers: { destination: `${running().base}${base}/mine.txt` },
      });
      expect(response.status, method).toBe(403);
    }
    expect((await dav(bob, "GET", "/dav/mine.txt")).status).toBe(200);
    const after = (await listing(alice, `${base}/Harbour/`)).slice(1);
    expect(after.map((entry) => [entry.href, entry.etag])).toEqual(files.map((entry) => [entry.href, entry.etag]));
    const options = await dav(alice, "OPTIONS", `${base}/`);
    expect(options.headers.get("dav")).toBe("1");
    expect(options.headers.get("allow")).not.toContain("PUT");
  });

  it("keeps a library the caller may not read invisible: its paths answer 404 like paths that never existed", async () => {
    const secret = `/dav-libraries/${encodeURIComponent(secretName)}`;
    // Bob (an editor: every library) sees it and its story.
    const bobs = (await listing(bob, `${secret}/`)).slice(1);
    expect(bobs).toHaveLength(1);
    const fileUrl = bobs[0]!.href.split("/").map(encodeURIComponent).join("/");
    expect((await dav(bob, "GET", fileUrl)).status).toBe(200);

    const missing = `/dav-libraries/${encodeURIComponent(`No such library ${dialect}`)}`;
    const answers = async (url: string) => {
      const response = await dav(alice, "PROPFIND", url, { headers: { depth: "0" } });
      return [response.status, await response.text()];
    };
    for (const [hidden, absent] of [
      [`${secret}/`, `${missing}/`],
      [fileUrl, `${missing}/${fileUrl.split("/").at(-1)}`],
    ] as const) {
      expect(await answers(hidden), hidden).toEqual(await answers(absent));
      expect((await answers(hidden))[0]).toBe(404);
      expect((await dav(alice, "GET", hidden)).status).toBe(404);
    }
    // A change there is refused as read-only before anything is looked up: the same for both.
    expect((await dav(alice, "DELETE", fileUrl)).status).toBe(403);

    // Readable now: a grant shows the library at once, its removal hides it again.
    const grant = await api<{ id: string }>(admin, "POST", "/library-grants", {
      libraryId: secretLibrary,
      userId: alice.id,
      level: "read",
    });
    expect((await dav(alice, "GET", fileUrl)).status).toBe(200);
    expect((await listing(alice, "/dav-libraries/")).map((entry) => entry.href)).toContain(
      `/dav-libraries/${secretName}/`,
    );
    await api(admin, "DELETE", `/library-grants/${grant.id}`);
    expect((await dav(alice, "GET", fileUrl)).status).toBe(404);
    expect((await listing(alice, "/dav-libraries/")).map((entry) => entry.href)).not.toContain(
      `/dav-libraries/${secretName}/`,
    );
  });

  it("refuses path traversal in the libraries and never leaves them", async () => {
    const secretFile = (await listing(bob, `/dav-libraries/${encodeURIComponent(secretName)}/`))[1]!.href;
    const leaf = encodeURIComponent(secretFile.split("/").at(-1)!);
    for (const url of [
      `/dav-libraries/${encodeURIComponent(productName)}/../${encodeURIComponent(secretName)}/${leaf}`,
      `/dav-libraries/${encodeURIComponent(productName)}/%2e%2e/${encodeURIComponent(secretName)}/${leaf}`,
      `/dav-libraries/${encodeURIComponent(productName)}/..%2F${encodeURIComponent(secretName)}%2F${leaf}`,
      `/dav-libraries/..%2f..%2fdav%2f`,
      `/dav-libraries/${encodeURIComponent(`${secretName}/${secretFile.split("/").at(-1)}`)}`,
    ]) {
      const response = await fetch(`${running().base}${url}`, { headers: basic(alice) });
      expect([400, 404], url).toContain(response.status);
      expect(Buffer.from(await response.arrayBuffer()).includes(photo.subarray(0, 64)), url).toBe(false);
    }
  });

  it("serves what colleagues shared: view and download read-only by the disk's rules, edit writable in the owner's space", async () => {
    // Carol and the administrator (editors may share) share with Bob.
    const owner = carol;
    const other = admin;
    const view = await api<{ id: string }>(owner, "POST", "/disk/folders", { name: "Shared" });
    await dav(owner, "PUT", "/dav/Shared/inside.jpg", { body: photo });
    const parent = await api<{ id: string }>(owner, "POST", "/disk/folders", { name: "Desk" });
    const edit = await api<{ id: string }>(owner, "POST", "/disk/folders", { name: "Drop", parentId: parent.id });
    await api<{ id: string }>(owner, "POST", "/disk/folders", { name: "Private", parentId: parent.id });
    const others = await api<{ id: string }>(other, "POST", "/disk/folders", { name: "Shared" });
    await api(owner, "POST", `/disk/nodes/${view.id}/shares`, {
      grantee: { kind: "user", username: bob.username },
      level: "download",
    });
    await api(owner, "POST", `/disk/nodes/${edit.id}/shares`, {
      grantee: { kind: "user", username: bob.username },
      level: "edit",
    });
    await api(other, "POST", `/disk/nodes/${others.id}/shares`, {
      grantee: { kind: "user", username: bob.username },
      level: "view",
    });
    await dav(other, "PUT", "/dav/Shared/other.txt", { body: "other's" });

    // Two shared folders of one name: each takes its owner's name; the parent and siblings are not there.
    const top = (await listing(bob, "/dav-shared/")).slice(1).map((entry) => entry.href);
    expect(top.sort()).toEqual(
      [
        "/dav-shared/Drop/",
        `/dav-shared/Shared (${owner.username})/`,
        `/dav-shared/Shared (${other.username})/`,
      ].sort(),
    );
    const ownerShared = `/dav-shared/${encodeURIComponent(`Shared (${owner.username})`)}`;
    const otherShared = `/dav-shared/${encodeURIComponent(`Shared (${other.username})`)}`;
    expect((await listing(bob, `${ownerShared}/`)).map((entry) => entry.href)).toContain(
      `/dav-shared/Shared (${owner.username})/inside.jpg`,
    );
    const got = await dav(bob, "GET", `${ownerShared}/inside.jpg`);
    expect(got.status).toBe(200);
    expect(Buffer.from(await got.arrayBuffer()).equals(photo)).toBe(true);
    // View lists but does not download (the disk's rule), and neither level writes.
    expect((await listing(bob, `${otherShared}/`)).map((entry) => entry.href)).toContain(
      `/dav-shared/Shared (${other.username})/other.txt`,
    );
    expect((await dav(bob, "GET", `${otherShared}/other.txt`)).status).toBe(403);
    expect((await dav(bob, "PUT", `${ownerShared}/new.txt`, { body: "x" })).status).toBe(403);
    expect((await dav(bob, "DELETE", `${ownerShared}/inside.jpg`)).status).toBe(403);
    expect((await dav(bob, "MKCOL", `${ownerShared}/sub`)).status).toBe(403);
    // Nothing is made at the top of "shared with me".
    expect((await dav(bob, "PUT", "/dav-shared/top.txt", { body: "x" })).status).toBe(403);
    expect((await dav(bob, "MKCOL", "/dav-shared/top")).status).toBe(403);

    // Edit: a PUT and a MKCOL land in owner's disk and take owner's space, not bob's.
    const ownerBefore = (await api<{ usedBytes: number }>(owner, "GET", "/disk/usage")).usedBytes;
    const bobBefore = (await api<{ usedBytes: number }>(bob, "GET", "/disk/usage")).usedBytes;
    expect((await dav(bob, "PUT", "/dav-shared/Drop/from-bob.txt", { body: "bob wrote" })).status).toBe(201);
    expect((await dav(bob, "MKCOL", "/dav-shared/Drop/sub")).status).toBe(201);
    const inDrop = await api<{ items: { name: string; ownerId: string }[] }>(
      owner,
      "GET",
      `/disk/nodes?folderId=${edit.id}`,
    );
    expect(inDrop.items.map((item) => [item.name, item.ownerId]).sort()).toEqual(
      [
        ["from-bob.txt", owner.id],
        ["sub", owner.id],
      ].sort(),
    );
    expect((await api<{ usedBytes: number }>(owner, "GET", "/disk/usage")).usedBytes).toBe(ownerBefore + 9);
    expect((await api<{ usedBytes: number }>(bob, "GET", "/disk/usage")).usedBytes).toBe(bobBefore);
    // The owner's quota holds: 507, nothing stored.
    await api(admin, "PUT", `/disk/quotas/${owner.id}`, { quotaBytes: ownerBefore + 100 });
    expect((await dav(bob, "PUT", "/dav-shared/Drop/big.jpg", { body: photo })).status).toBe(507);
    expect((await dav(bob, "GET", "/dav-shared/Drop/big.jpg")).status).toBe(404);
    await api(admin, "PUT", `/disk/quotas/${owner.id}`, { quotaBytes: 10 * 1024 ** 3 });
    // A move within the shared folder renames; out of it to the top is refused; the parent is never reached.
    const moved = await dav(bob, "MOVE", "/dav-shared/Drop/from-bob.txt", {
      headers: { destination: `${running().base}/dav-shared/Drop/sub/renamed.txt` },
    });
    expect(moved.status).toBe(201);
    const out = await dav(bob, "MOVE", "/dav-shared/Drop/sub/renamed.txt", {
      headers: { destination: `${running().base}/dav-shared/renamed.txt` },
    });
    expect(out.status).toBe(403);
    for (const url of ["/dav-shared/Drop/..%2FPrivate/", "/dav-shared/Drop/%2e%2e/Private/", "/dav-shared/Desk/"]) {
      const response = await dav(bob, "PROPFIND", url, { headers: { depth: "1" } });
      expect([400, 404], url).toContain(response.status);
    }
    expect((await dav(bob, "DELETE", "/dav-shared/Drop/sub/renamed.txt")).status).toBe(204);
    expect((await api<{ name: string }[]>(owner, "GET", "/disk/trash")).map((item) => item.name)).toContain(
      "renamed.txt",
    );
    // Revoked, the share is gone from the mount.
    const shares = await api<{ id: string; nodeId: string }[]>(owner, "GET", "/disk/shares");
    for (const share of shares.filter((item) => item.nodeId === edit.id))
      await api(owner, "DELETE", `/disk/shares/${share.id}`);
    expect((await dav(bob, "PROPFIND", "/dav-shared/Drop/", { headers: { depth: "0" } })).status).toBe(404);
  });
});
