import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeEachDialect } from "../../test/dialects.js";
import { createPrincipal, type TestPrincipal } from "../../test/principals.js";
import { api, useStoriesApp } from "../../test/stories-app.js";
import { CredentialsCipher } from "./credentials-cipher.js";
import { type HttpReceiver, startHttpReceiver } from "./test-support/http-receiver.js";

const SECRET = "hmac-secret-不可外泄-0123456789";

describe("credentials cipher", () => {
  it("round-trips, binds the ciphertext to its channel and never stores the plaintext", () => {
    const cipher = new CredentialsCipher(Buffer.alloc(32, 7));
    const stored = cipher.encrypt("channel-a", { password: "p@ss 密码" });
    expect(stored).not.toContain("p@ss");
    expect(cipher.decrypt("channel-a", stored)).toEqual({ password: "p@ss 密码" });
    expect(() => cipher.decrypt("channel-b", stored)).toThrow();
    expect(cipher.encrypt("channel-a", { password: "x" })).not.toBe(cipher.encrypt("channel-a", { password: "x" }));
  });
});

describeEachDialect("channels", (dialect) => {
  const ctx = useStoriesApp(dialect, { env: { DAMS_CHANNEL_ALLOW_PRIVATE: "127.0.0.1/32" } });
  const call = api(ctx);
  let admin: TestPrincipal;
  let editor: TestPrincipal;
  let receiver: HttpReceiver;
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "dams-channel-folder-"));

  beforeAll(async () => {
    admin = await createPrincipal(ctx().db, { username: "channels-admin", roleId: "administrator", admin: true });
    editor = await createPrincipal(ctx().db, { username: "channels-editor", roleId: "editor" });
    receiver = await startHttpReceiver(SECRET);
  });
  afterAll(async () => {
    await receiver.close();
    fs.rmSync(folder, { recursive: true, force: true });
  });

  const httpChannel = (overrides: Record<string, unknown> = {}) => ({
    name: `web ${Math.random().toString(36).slice(2, 8)}`,
    kind: "http",
    format: "ninjs",
    settings: { url: receiver.url, timeoutMs: 5000 },
    credentials: { secret: SECRET },
    ...overrides,
  });

  it("keeps credentials write-only and encrypted at rest", async () => {
    const created = await call(admin, "POST", "/channels", httpChannel({ name: "网站" }));
    expect(created.statusCode, created.body).toBe(200);
    const channel = created.json().data;
    expect(channel).toMatchObject({
      name: "网站",
      kind: "http",
      format: "ninjs",
      enabled: true,
      credentialsSet: ["secret"],
    });
    expect(created.body).not.toContain(SECRET);
    const listed = await call(admin, "GET", "/channels");
    expect(listed.body).not.toContain(SECRET);
    expect(listed.json().data.map((c: { id: string }) => c.id)).toContain(channel.id);
    const row = await ctx()
      .db.kysely.selectFrom("channels")
      .selectAll()
      .where("id", "=", channel.id)
      .executeTakeFirstOrThrow();
    expect(row.credentials).toMatch(/^v1:/);
    expect(row.credentials).not.toContain(SECRET);

    // Absent keeps, a value sets, null clears; a field the kind does not take is refused by name.
    const kept = await call(
      admin,
      "PUT",
      `/channels/${channel.id}`,
      httpChannel({ name: "网站", credentials: undefined }),
    );
    expect(kept.json().data.credentialsSet).toEqual(["secret"]);
    const token = await call(
      admin,
      "PUT",
      `/channels/${channel.id}`,
      httpChannel({ name: "网站", credentials: { token: "t" } }),
    );
    expect(token.json().data.credentialsSet).toEqual(["secret", "token"]);
    const cleared = await call(
      admin,
      "PUT",
      `/channels/${channel.id}`,
      httpChannel({ name: "网站", credentials: { token: null } }),
    );
    expect(cleared.json().data.credentialsSet).toEqual(["secret"]);
    const wrong = await call(
      admin,
      "PUT",
      `/channels/${channel.id}`,
      httpChannel({ name: "网站", credentials: { password: "x" } }),
    );
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().msg).toContain("credentials.password");
    const taken = await call(admin, "POST", "/channels", httpChannel({ name: "网站" }));
    expect(taken.statusCode).toBe(409);
  });

  it("refuses invalid settings naming the field", async () => {
    const badUrl = await call(admin, "POST", "/channels", httpChannel({ settings: { url: "ftp://example.com/x" } }));
    expect(badUrl.statusCode).toBe(400);
    expect(badUrl.json().msg).toContain("settings.url");
    const relative = await call(admin, "POST", "/channels", {
      name: "f",
      kind: "folder",
      format: "newsml",
      settings: { path: "out" },
    });
    expect(relative.statusCode).toBe(400);
    expect(relative.json().msg).toContain("settings.path");
    const noKind = await call(admin, "POST", "/channels", { name: "k", kind: "fax", format: "ninjs", settings: {} });
    expect(noKind.statusCode).toBe(400);
    const mapping = await call(
      admin,
      "POST",
      "/channels",
      httpChannel({ fieldMapping: { headline: "password_hash" } }),
    );
    expect(mapping.statusCode).toBe(400);
    expect(mapping.json().msg).toContain("fieldMapping.headline");
  });

  it("tests the connection and answers with a clear reason", async () => {
    const test = async (body: Record<string, unknown>) => {
      const created = (await call(admin, "POST", "/channels", body)).json().data;
      const answer = await call(admin, "POST", `/channels/${created.id}/test`);
      expect(answer.statusCode).toBe(200);
      return answer.json().data as { ok: boolean; reason: string };
    };
    const good = await test(httpChannel());
    expect(good).toMatchObject({ ok: true });
    expect(good.reason).toContain("HTTP 202");
    expect(receiver.parts.at(-1)).toMatchObject({ part: "ping", signatureValid: true });

    const wrongSecret = await test(httpChannel({ credentials: { secret: "not the one" } }));
    expect(wrongSecret).toMatchObject({ ok: false });
    expect(wrongSecret.reason).toContain("HTTP 401");

    const closed = await test(httpChannel({ settings: { url: "http://127.0.0.1:9/nothing" } }));
    expect(closed.ok).toBe(false);
    expect(closed.reason).toContain("refused the connection");

    const privateAddress = await test(httpChannel({ settings: { url: "http://10.1.2.3/ingest" } }));
    expect(privateAddress.ok).toBe(false);
    expect(privateAddress.reason).toContain("private address");
    expect(privateAddress.reason).toContain("DAMS_CHANNEL_ALLOW_PRIVATE");
    const metadata = await test(httpChannel({ settings: { url: "http://169.254.169.254/latest" } }));
    expect(metadata.reason).toContain("link-local");

    const folderOk = await test({ name: "hot folder", kind: "folder", format: "newsml", settings: { path: folder } });
    expect(folderOk).toMatchObject({ ok: true });
    const missing = await test({
      name: "gone",
      kind: "folder",
      format: "newsml",
      settings: { path: `${folder}/missing` },
    });
    expect(missing).toMatchObject({ ok: false });
    expect(missing.reason).toContain("does not exist");
  });

  it("lets only the tunnel screen manage channels; publishers see names", async () => {
    expect((await call(editor, "GET", "/channels")).statusCode).toBe(403);
    expect((await call(editor, "POST", "/channels", httpChannel())).statusCode).toBe(403);
    const options = await call(editor, "GET", "/channels/options");
    expect(options.statusCode).toBe(200);
    expect(options.body).not.toContain("settings");
    expect(options.json().data[0]).toEqual({
      id: expect.any(String),
      name: expect.any(String),
      kind: expect.any(String),
      format: expect.any(String),
    });
  });
});
