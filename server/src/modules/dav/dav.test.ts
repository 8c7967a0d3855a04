import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { beforeAll, expect, it } from "vitest";
import { fetchApi } from "../../test/api-call.js";
import { describeEachDialect } from "../../test/dialects.js";
import { createPrincipal, type TestPrincipal } from "../../test/principals.js";
import { CORPUS, useRunningApp } from "../uploads/uploads.test-support.js";

const photo = fs.readFileSync(path.join(CORPUS, "jpg/Canon_40D.jpg"));

function basic(username: string, password: string): { authorization: string } {
  return { authorization: `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}` };
}

interface DiskItem {
  id: string;
  name: string;
  kind: string;
  size: number;
  mime: string | null;
}

/** litmus's "<- summary for `basic': of 16 tests run: 16 passed, 0 failed. 100.0%" lines, by group. */
export function litmusSummary(output: string): Record<string, { run: number; passed: number; failed: number }> {
  const groups: Record<string, { run: number; passed: number; failed: number }> = {};
  for (const match of output.matchAll(/summary for [`'](\w+)': of (\d+) tests run: (\d+) passed, (\d+) failed/g)) {
    const [, group, run, passed, failed] = match;
    if (group) groups[group] = { run: Number(run), passed: Number(passed), failed: Number(failed) };
  }
  return groups;
}

const hasLitmus = spawnSync("litmus", ["--version"]).error === undefined;

describeEachDialect("WebDAV over the network disk", (dialect) => {
  const { db, running } = useRunningApp(dialect);
  let alice: TestPrincipal;
  let bob: TestPrincipal;
  let admin: TestPrincipal;

  const dav = (
    who: TestPrincipal,
    method: string,
    url: string,
    init: { headers?: Record<string, string>; body?: Uint8Array | string } = {},
  ) =>
    fetch(`${running().base}/dav${url}`, {
      method,
      headers: { ...basic(who.username, who.token), ...init.headers },
      body: init.body as BodyInit | undefined,
    });

  const api = <T>(who: TestPrincipal, method: string, url: string, body?: unknown) =>
    fetchApi<T>(running().base, who, method, url, body);

  beforeAll(async () => {
    alice = await createPrincipal(db(), { username: `dav-alice-${dialect}`, roleId: "contributor" });
    bob = await createPrincipal(db(), { username: `dav-bob-${dialect}`, roleId: "editor" });
    admin = await createPrincipal(db(), { username: `dav-admin-${dialect}`, admin: true, roleId: "administrator" });
  });

  it("refuses a request without Basic credentials made of the user's name and a personal API token", async () => {
    const anonymous = await fetch(`${running().base}/dav/`, { method: "PROPFIND", headers: { depth: "0" } });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("www-authenticate")).toMatch(/^Basic realm="dams"/);
    const refused: [string, Record<string, string>][] = [
      ["a bearer token", alice.headers],
      ["a wrong token", basic(alice.username, `dams_${"A".repeat(43)}`)],
      ["a password that is no API token", basic(alice.username, "test-password-1")],
      ["another user's name", basic(bob.username, alice.token)],
      ["no colon", { authorization: `Basic ${Buffer.from(alice.token).toString("base64")}` }],
    ];
    for (const [why, headers] of refused) {
      const response = await fetch(`${running().base}/dav/`, {
        method: "PROPFIND",
        headers: { depth: "0", ...headers },
      });
      expect(response.status, why).toBe(401);
      expect(response.headers.get("www-authenticate"), why).toMatch(/^Basic /);
    }
    const allowed = await dav(alice, "PROPFIND", "/", { headers: { depth: "0" } });
    expect(allowed.status).toBe(207);
    expect(await allowed.text()).toContain("multistatus");
  });

  it("serves each user's own disk: folders, a PUT typed by content like an upload, GET, MOVE, DELETE to the trash", async () => {
    expect((await dav(alice, "MKCOL", "/Reports")).status).toBe(201);
    const put = await dav(alice, "PUT", "/Reports/photo.jpg", {
      body: photo,
      headers: { "content-type": "text/plain" },
    });
    expect(put.status).toBe(201);
    const folder = (await api<{ items: DiskItem[] }>(alice, "GET", "/disk/nodes")).items.find(
      (item) => item.name === "Reports",
    );
    expect(folder?.kind).toBe("folder");
    const inside = await api<{ items: DiskItem[] }>(alice, "GET", `/disk/nodes?folderId=${folder?.id}`);
    expect(inside.items.map((item) => [item.name, item.size, item.mime])).toEqual([
      ["photo.jpg", photo.length, "image/jpeg"],
    ]);

    const got = await dav(alice, "GET", "/Reports/photo.jpg");
    expect(got.status).toBe(200);
    expect(Buffer.from(await got.arrayBuffer()).equals(photo)).toBe(true);
    const listing = await (await dav(alice, "PROPFIND", "/Reports/", { headers: { depth: "1" } })).text();
    expect(listing).toContain("photo.jpg");

    // Bob's /dav/ is his own disk: Alice's folder is not there.
    expect((await dav(bob, "GET", "/Reports/photo.jpg")).status).toBe(404);
    expect(await (await dav(bob, "PROPFIND", "/", { headers: { depth: "1" } })).text()).not.toContain("Reports");

    const moved = await dav(alice, "MOVE", "/Reports/photo.jpg", {
      headers: { destination: `${running().base}/dav/Reports/renamed.jpg` },
    });
    expect(moved.status).toBe(201);
    const after = await api<{ items: DiskItem[] }>(alice, "GET", `/disk/nodes?folderId=${folder?.id}`);
    expect(after.items.map((item) => [item.id, item.name])).toEqual([[inside.items[0]?.id, "renamed.jpg"]]);

    expect((await dav(alice, "DELETE", "/Reports/renamed.jpg")).status).toBe(204);
    const trash = await api<DiskItem[]>(alice, "GET", "/disk/trash");
    expect(trash.map((item) => item.name)).toContain("renamed.jpg");
  });

  it("refuses path traversal and names the disk refuses, and never leaves the caller's disk", async () => {
    await dav(bob, "PUT", "/secret.txt", { body: "bob's" });
    for (const url of ["/../secret.txt", "/%2e%2e/secret.txt", "/..%2F..%2Fetc%2Fpasswd", "/x/..%2f..%2fsecret.txt"]) {
      const response = await dav(alice, "GET", url);
      expect([400, 404], url).toContain(response.status);
      expect(await response.text(), url).not.toContain("bob's");
    }
    const backslash = await dav(alice, "PUT", "/a%5C..%5Cb.txt", { body: "x" });
    expect(backslash.status).toBe(400);
    const control = await dav(alice, "MKCOL", "/bad%01name");
    expect(control.status).toBe(400);
    const outside = await dav(alice, "MOVE", "/Reports", {
      headers: { destination: `${running().base}/dav/../../outside` },
    });
    expect([400, 403, 404, 409, 502]).toContain(outside.status);
    const names = (await api<{ items: DiskItem[] }>(alice, "GET", "/disk/nodes")).items.map((item) => item.name);
    expect(names).not.toContain("outside");
    expect(names.some((name) => name.includes("\\") || name.includes("\u0001"))).toBe(false);
  });

  it("holds a PUT to the quota: 507 before the body when the length is too much, nothing stored", async () => {
    const { usedBytes } = await api<{ usedBytes: number }>(alice, "GET", "/disk/usage");
    await api(admin, "PUT", `/disk/quotas/${alice.id}`, { quotaBytes: usedBytes + 1000 });
    const refused = await dav(alice, "PUT", "/too-big.jpg", { body: new Uint8Array(photo) });
    expect(refused.status).toBe(507);
    expect((await dav(alice, "GET", "/too-big.jpg")).status).toBe(404);
    expect((await api<{ usedBytes: number }>(alice, "GET", "/disk/usage")).usedBytes).toBe(usedBytes);
    const small = await dav(alice, "PUT", "/small.txt", { body: "fits" });
    expect(small.status).toBe(201);
    await api(admin, "PUT", `/disk/quotas/${alice.id}`, { quotaBytes: 10 * 1024 ** 3 });
  });

  it("passes litmus's basic, copymove, props and locks groups", async () => {
    expect(hasLitmus, "litmus is not installed: scripts/setup.mjs installs it with apt-get").toBe(true);
    const output = await new Promise<string>((resolve) => {
      const child = spawn("litmus", [`${running().base}/dav/`, bob.username, bob.token], {
        env: { ...process.env, TESTS: "basic copymove props locks http" },
      });
      let text = "";
      child.stdout.on("data", (chunk: Buffer) => {
        text += chunk.toString();
      });
      child.stderr.on("data", (chunk: Buffer) => {
        text += chunk.toString();
      });
      child.on("close", () => resolve(text));
    });
    const summary = litmusSummary(output);
    console.log(`litmus [${dialect}]: ${JSON.stringify(summary)}`);
    for (const group of ["basic", "copymove", "props", "locks"]) {
      expect(summary[group], `${group}\n${output}`).toBeDefined();
      expect(summary[group]?.failed, `${group}\n${output}`).toBe(0);
    }
  }, 120_000);
});
