import { randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { exportJWK, generateKeyPair, type JWK } from "jose";
import type { OidcConfig } from "../../config.js";
import type { SecretSpec } from "../secrets/shared-secrets.js";

export interface OidcKeys {
  /** Private signing keys (RS256), newest first. */
  signing: JWK[];
  /** Secrets that sign the provider's cookies, newest first. */
  cookieKeys: string[];
}

const PRIVATE_MEMBERS = ["d", "p", "q", "dp", "dq", "qi", "k"] as const;

export function publicJwk(key: JWK): JWK {
  const copy: JWK = { ...key };
  for (const member of PRIVATE_MEMBERS) delete copy[member];
  return copy;
}

async function generateKeys(): Promise<OidcKeys> {
  const { privateKey } = await generateKeyPair("RS256", { modulusLength: 2048, extractable: true });
  const jwk = await exportJWK(privateKey);
  return {
    signing: [{ ...jwk, kid: randomUUID(), alg: "RS256", use: "sig" }],
    cookieKeys: [randomBytes(32).toString("base64url")],
  };
}

/** The keys from their JSON text (a key file's, or the database's); `where` names it in errors. */
export function parseOidcKeys(text: string, where = "the OIDC keys"): OidcKeys {
  const parsed = JSON.parse(text) as Partial<OidcKeys>;
  if (!Array.isArray(parsed.signing) || parsed.signing.length === 0 || !Array.isArray(parsed.cookieKeys)) {
    throw new Error(`${where} is not a dams OIDC key set (expected { signing: [JWK…], cookieKeys: [...] })`);
  }
  return parsed as OidcKeys;
}

const parse = (file: string, text: string) => parseOidcKeys(text, file);

/**
 * The embedded provider's keys as a shared secret (modules/secrets): the
 * DAMS_OIDC_KEYS_FILE every node reads, else one set for the whole database,
 * generated once (or imported from the data dir's `oidc-keys.json` of an
 * earlier version).
 */
export async function oidcKeysSecret(config: Pick<OidcConfig, "keysFile" | "legacyKeysFile">): Promise<SecretSpec> {
  const configured = config.keysFile ? JSON.stringify(await loadOrCreateKeys(config.keysFile)) : undefined;
  return {
    name: "oidc.keys",
    variable: "DAMS_OIDC_KEYS_FILE",
    configured,
    legacy: () =>
      fs.existsSync(config.legacyKeysFile)
        ? JSON.stringify(parse(config.legacyKeysFile, fs.readFileSync(config.legacyKeysFile, "utf8")))
        : undefined,
    generate: async () => JSON.stringify(await generateKeys()),
  };
}

/**
 * Reads the key file, or creates it (mode 0600) on first start. Creation
 * uses an exclusive open, so two processes starting together agree on one set.
 */
export async function loadOrCreateKeys(file: string): Promise<OidcKeys> {
  if (fs.existsSync(file)) return parse(file, fs.readFileSync(file, "utf8"));
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const keys = await generateKeys();
  try {
    fs.writeFileSync(file, `${JSON.stringify(keys, null, 2)}\n`, { mode: 0o600, flag: "wx" });
    return keys;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return parse(file, fs.readFileSync(file, "utf8"));
    throw error;
  }
}
