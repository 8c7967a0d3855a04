import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

const VERSION = "v1";

/**
 * Channel credentials at rest: AES-256-GCM with the key every node shares
 * (`channels.credentials-key`, DAMS_CHANNEL_CREDENTIALS_KEY; modules/secrets).
 * A fresh 12-byte IV per write; the tag authenticates the channel id too, so
 * one channel's ciphertext pasted into another row does not decrypt.
 */
export class CredentialsCipher {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error("the channel credentials key is 32 bytes");
  }

  encrypt(channelId: string, credentials: Record<string, string>): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.key, iv);
    cipher.setAAD(Buffer.from(channelId, "utf8"));
    const body = Buffer.concat([cipher.update(JSON.stringify(credentials), "utf8"), cipher.final()]);
    return `${VERSION}:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64")}`;
  }

  decrypt(channelId: string, stored: string): Record<string, string> {
    const [version, payload] = stored.split(":", 2);
    if (version !== VERSION || !payload) throw new Error("channel credentials in an unknown format");
    const bytes = Buffer.from(payload, "base64");
    const decipher = createDecipheriv("aes-256-gcm", this.key, bytes.subarray(0, 12));
    decipher.setAAD(Buffer.from(channelId, "utf8"));
    decipher.setAuthTag(bytes.subarray(12, 28));
    const text = Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString("utf8");
    return JSON.parse(text) as Record<string, string>;
  }
}
