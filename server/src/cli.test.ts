import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
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

  it("stops at boot with a message naming a bad variable", () => {
    const result = dams(["migrate"], { PORT: "not-a-port" });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("Invalid configuration");
    expect(result.stderr).toContain("PORT");
  });
});
