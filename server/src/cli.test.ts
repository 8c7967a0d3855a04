import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";

const cli = path.resolve(import.meta.dirname, "cli.ts");
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "dams-cli-"));

function dams(args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, ["--import", "tsx", cli, ...args], {
    encoding: "utf8",
    env: { ...process.env, DAMS_DATA_DIR: dataDir, DAMS_LOG_LEVEL: "silent", ...env },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe("dams CLI", () => {
  it("migrates, then says the database is up to date", () => {
    expect(dams(["migrate"]).stdout).toContain("applied: 0001-users-and-menus, 0002-seed-menus");
    expect(dams(["migrate"]).stdout).toContain("database is up to date");
  });

  it("creates a user and changes the password", () => {
    const created = dams(["user", "create", "editor", "--name", "Desk Editor", "--password", "first-password"]);
    expect(created).toMatchObject({ status: 0, stdout: "created user editor\n" });
    const changed = dams(["user", "passwd", "editor"], { DAMS_PASSWORD: "second-password" });
    expect(changed).toMatchObject({ status: 0, stdout: "password changed for editor\n" });
  });

  it("explains a refusal and exits non-zero", () => {
    const duplicate = dams(["user", "create", "editor", "--password", "another-password"]);
    expect(duplicate.status).toBe(1);
    expect(duplicate.stderr).toBe("dams: user editor already exists\n");
    expect(dams(["user", "passwd", "ghost", "--password", "whatever-pass"]).stderr).toBe(
      "dams: user ghost does not exist\n",
    );
  });

  it("prints an API token for a user, stores only its hash, and refuses an unknown user", () => {
    const created = dams(["token", "create", "editor", "--name", "wire import", "--days", "30"]);
    expect(created.status).toBe(0);
    expect(created.stdout).toMatch(/^dams_[A-Za-z0-9_-]{43}\n$/);
    const secret = created.stdout.trim();
    const database = new Database(path.join(dataDir, "dams.sqlite"), { readonly: true });
    const row = database.prepare("select name, token_hash, expires_at from api_tokens").get() as Record<string, string>;
    database.close();
    expect(row.name).toBe("wire import");
    expect(row.token_hash).toBe(createHash("sha256").update(secret).digest("hex"));
    expect(Date.parse(row.expires_at!) - Date.now()).toBeGreaterThan(29 * 86_400_000);
    expect(dams(["token", "create", "ghost"]).stderr).toContain("dams: user ghost does not exist\n");
    expect(dams(["token", "create", "editor", "--days", "0"]).status).toBe(1);
  });

  it("lists the shared keys by fingerprint and forgets one on purpose", () => {
    const database = new Database(path.join(dataDir, "dams.sqlite"));
    database
      .prepare("insert into shared_secrets values ('media-urls.key', 'secret-value', ?, 'generated', ?, ?)")
      .run(
        createHash("sha256").update("secret-value").digest("hex"),
        "2026-11-25T00:00:00.000Z",
        "2026-11-25T00:00:00.000Z",
      );
    database.close();
    const listed = dams(["secrets", "list"]);
    expect(listed.stdout).toMatch(/^media-urls\.key\tgenerated\t[0-9a-f]{12}\t2026-11-25T00:00:00\.000Z\n$/);
    expect(listed.stdout).not.toContain("secret-value");
    expect(dams(["secrets", "reset", "media-urls.key"]).stdout).toBe("forgot media-urls.key\n");
    expect(dams(["secrets", "reset", "media-urls.key"]).stderr).toBe("dams: no shared key media-urls.key\n");
  });

  it("stops at boot with a message naming a bad variable", () => {
    const result = dams(["migrate"], { PORT: "not-a-port" });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("Invalid configuration");
    expect(result.stderr).toContain("PORT");
  });
});
