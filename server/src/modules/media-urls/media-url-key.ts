import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/**
 * The HMAC key of signed media URLs: the configured one, else the data dir's
 * key file, created (mode 0600, exclusive open, so processes starting together
 * agree) on first start. Several API nodes must share it: give them the same
 * DAMS_MEDIA_URL_KEY or the same file.
 */
export function loadOrCreateMediaUrlKey(options: { key?: string; keyFile: string }): Buffer {
  if (options.key) return Buffer.from(options.key, "utf8");
  const read = () => {
    const text = fs.readFileSync(options.keyFile, "utf8").trim();
    if (text.length < 32) throw new Error(`${options.keyFile} holds no media URL key (expected 32+ characters)`);
    return Buffer.from(text, "utf8");
  };
  if (fs.existsSync(options.keyFile)) return read();
  fs.mkdirSync(path.dirname(options.keyFile), { recursive: true, mode: 0o700 });
  try {
    fs.writeFileSync(options.keyFile, `${randomBytes(32).toString("base64url")}\n`, { mode: 0o600, flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  return read();
}
