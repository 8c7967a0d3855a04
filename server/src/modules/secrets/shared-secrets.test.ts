import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildApp } from "../../app.js";
import { ConfigError } from "../../config.js";
import { describeEachDialect, testConfig, useTestDbTwice } from "../../test/dialects.js";
import { oidcKeysSecret, parseOidcKeys } from "../oidc/oidc-keys.js";
import { type SecretSpec, SharedSecrets } from "./shared-secrets.js";
import { readOrCreateKeyFile, textKeySecret } from "./text-key.js";

const VARIABLE = "DAMS_TEST_KEY or DAMS_TEST_KEY_FILE";

function spec(name: string, overrides: Partial<SecretSpec> = {}): SecretSpec {
  return { name, variable: VARIABLE, generate: () => `generated-${Math.random()}`, ...overrides };
}

describeEachDialect("keys every node shares", (dialect) => {
  const dbs = useTestDbTwice(dialect);
  const nodeA = () => new SharedSecrets(dbs().db);
  const nodeB = () => new SharedSecrets(dbs().other);

  it("generates a key once for the database: two nodes starting together get the same one", async () => {
    const [a, b] = await Promise.all([nodeA().resolve(spec("k.race")), nodeB().resolve(spec("k.race"))]);
    expect(a).toBe(b);
    expect(await nodeB().resolve(spec("k.race"))).toBe(a);
    expect((await nodeA().list()).find((row) => row.name === "k.race")).toMatchObject({ source: "generated" });
  });

  it("imports an earlier version's key from the data dir once, for every node", async () => {
    const imported = await nodeA().resolve(spec("k.legacy", { legacy: () => "the-old-key-of-this-data-dir-000000" }));
    expect(imported).toBe("the-old-key-of-this-data-dir-000000");
    expect(await nodeB().resolve(spec("k.legacy"))).toBe(imported);
    expect((await nodeA().list()).find((row) => row.name === "k.legacy")).toMatchObject({ source: "imported" });
  });

  it("keeps only the fingerprint of a configured key, and a node without it refuses, naming the variable", async () => {
    const configured = "configured-on-every-node-0000000000";
    expect(await nodeA().resolve(spec("k.configured", { configured }))).toBe(configured);
    const row = await dbs()
      .db.kysely.selectFrom("shared_secrets")
      .selectAll()
      .where("name", "=", "k.configured")
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ value: null, source: "configured" });
    expect(row.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    const refused = await nodeB()
      .resolve(spec("k.configured"))
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ConfigError);
    expect((refused as Error).message).toContain(`${VARIABLE} is set on the other nodes of this database`);
    expect(await nodeB().resolve(spec("k.configured", { configured }))).toBe(configured);
  });

  it("refuses a node configured with another value, until the key is reset on purpose", async () => {
    await nodeA().resolve(spec("k.rotate", { configured: "the-first-value-000000000000000000" }));
    const other = spec("k.rotate", { configured: "another-value-00000000000000000000" });
    await expect(nodeB().resolve(other)).rejects.toThrow(/differs from the value the other nodes of this database use/);
    expect(await nodeB().reset("k.rotate")).toBe(true);
    expect(await nodeB().resolve(other)).toBe("another-value-00000000000000000000");
  });

  it("lets a configured key replace a stored one; nodes without it then refuse", async () => {
    const generated = await nodeA().resolve(spec("k.move"));
    const warnings: string[] = [];
    const configured = "now-from-the-secret-manager-000000000";
    const moved = new SharedSecrets(dbs().db, { warn: (_object, message) => warnings.push(message) });
    expect(await moved.resolve(spec("k.move", { configured }))).toBe(configured);
    expect(configured).not.toBe(generated);
    expect(warnings.join()).toContain("nodes without it will now refuse to start");
    await expect(nodeB().resolve(spec("k.move"))).rejects.toThrow(ConfigError);
  });

  describe("the app", () => {
    const dataDirs = [
      fs.mkdtempSync(path.join(os.tmpdir(), "dams-keys-")),
      fs.mkdtempSync(path.join(os.tmpdir(), "dams-keys-")),
    ];
    afterAll(() => {
      for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
    });

    it("gives a second node on the same database the first node's keys, with nothing configured", async () => {
      const apps = [];
      for (const [index, db] of [dbs().db, dbs().other].entries()) {
        const database = {
          dialect,
          dataDir: dataDirs[index]!,
          config: { kind: "sqlite" as const, file: "" },
          drop: async () => {},
        };
        apps.push(await buildApp({ config: testConfig(database), db, logger: false }));
      }
      const [a, b] = apps as [Awaited<ReturnType<typeof buildApp>>, Awaited<ReturnType<typeof buildApp>>];
      expect(a.sharedKeys.mediaUrl.equals(b.sharedKeys.mediaUrl)).toBe(true);
      expect(a.sharedKeys.channelCredentials).toHaveLength(32);
      expect(a.sharedKeys.channelCredentials.equals(b.sharedKeys.channelCredentials)).toBe(true);
      for (const app of apps) await app.close();
    });
  });
});

describe("key files", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dams-key-files-"));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("creates a configured key file once (mode 0600) and reads the same key after; a short one is refused", () => {
    const file = path.join(dir, "sub", "channels.key");
    const first = readOrCreateKeyFile(file);
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(readOrCreateKeyFile(file)).toBe(first);
    expect(textKeySecret("k", VARIABLE, { keyFile: file }).configured).toBe(first);
    expect(textKeySecret("k", VARIABLE, { key: "x".repeat(32), keyFile: file }).configured).toBe("x".repeat(32));
    fs.writeFileSync(path.join(dir, "short.key"), "short\n");
    expect(() => readOrCreateKeyFile(path.join(dir, "short.key"))).toThrow(/holds no key/);
  });

  it("takes the OIDC keys from DAMS_OIDC_KEYS_FILE (created 0600 when absent), else imports the data dir's", async () => {
    const keysFile = path.join(dir, "oidc.json");
    const configured = await oidcKeysSecret({ keysFile, legacyKeysFile: path.join(dir, "none.json") });
    expect(fs.statSync(keysFile).mode & 0o777).toBe(0o600);
    expect(parseOidcKeys(configured.configured!).signing[0]).toMatchObject({ alg: "RS256" });
    expect((await oidcKeysSecret({ keysFile, legacyKeysFile: "" })).configured).toBe(configured.configured);
    const legacy = await oidcKeysSecret({ legacyKeysFile: keysFile });
    expect(legacy.configured).toBeUndefined();
    expect(legacy.legacy!()).toBe(configured.configured);
    expect(parseOidcKeys(await legacy.generate()).signing).toHaveLength(1);
  });
});
