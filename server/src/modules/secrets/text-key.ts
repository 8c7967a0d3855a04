import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { SharedKeyConfig } from "../../config.js";
import type { SecretSpec } from "./shared-secrets.js";

function readKeyFile(file: string): string {
  const text = fs.readFileSync(file, "utf8").trim();
  if (text.length < 32) throw new Error(`${file} holds no key (expected 32+ characters)`);
  return text;
}

/** A new key: 32 random bytes, base64url. */
export function newTextKey(): string {
  return randomBytes(32).toString("base64url");
}

/**
 * Reads a key file, or creates it with a new key (mode 0600, exclusive open,
 * so processes starting together on one machine agree).
 */
export function readOrCreateKeyFile(file: string): string {
  if (fs.existsSync(file)) return readKeyFile(file);
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  try {
    fs.writeFileSync(file, `${newTextKey()}\n`, { mode: 0o600, flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  return readKeyFile(file);
}

/**
 * A text key every node must share (the media-URL key, the channel credential
 * key): the variable's value, else its file, else the database's (generated
 * once, or imported from an earlier version's file in the data dir).
 */
export function textKeySecret(name: string, variables: string, config: SharedKeyConfig): SecretSpec {
  const { legacyFile } = config;
  return {
    name,
    variable: variables,
    configured: config.key ?? (config.keyFile ? readOrCreateKeyFile(config.keyFile) : undefined),
    legacy: () => (legacyFile && fs.existsSync(legacyFile) ? readKeyFile(legacyFile) : undefined),
    generate: newTextKey,
  };
}

/** The 32 bytes an AES-256 or HMAC key is made of, from a text key of any length. */
export function keyBytes(text: string): Buffer {
  return createHash("sha256").update(text, "utf8").digest();
}
