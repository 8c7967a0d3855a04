import { createHash, randomUUID } from "node:crypto";
import path from "node:path";
import SftpClient from "ssh2-sftp-client";
import type { SftpSettings } from "../channels.schema.js";
import { DeliveryError, type DeliveryPackage, type Transport } from "./transport.js";

function sftpReason(error: unknown, where: string): DeliveryError {
  if (error instanceof DeliveryError) return error;
  const message = (error as Error).message ?? String(error);
  if (/authentication|All configured authentication methods failed/i.test(message))
    return new DeliveryError(`${where} refused the login (${message.replace(/^connect: /, "")})`, false);
  if (/host key|hostVerifier|verification/i.test(message)) return new DeliveryError(`${where}: ${message}`, false);
  if (/No such file|ENOENT/i.test(message))
    return new DeliveryError(`${where}: the directory does not exist (${message})`, false);
  if (/Permission denied|EACCES/i.test(message))
    return new DeliveryError(`${where}: permission denied (${message})`, false);
  if (/ECONNREFUSED/.test(message)) return new DeliveryError(`${where} refused the connection`, true);
  if (/timed out|ETIMEDOUT/i.test(message)) return new DeliveryError(`${where} did not answer in time`, true);
  return new DeliveryError(`${where}: ${message}`, true);
}

/**
 * SFTP (ssh2-sftp-client): password or private key, the host key pinned by
 * its SHA-256 fingerprint when the channel names one; files are uploaded
 * under a temporary name and renamed.
 */
export class SftpTransport implements Transport {
  constructor(
    private readonly settings: SftpSettings,
    private readonly credentials: Record<string, string>,
  ) {}

  get #where(): string {
    return `${this.settings.host}:${this.settings.port}`;
  }

  async #connect(): Promise<SftpClient> {
    const client = new SftpClient();
    const pinned = this.settings.hostKeySha256;
    let seenKey: string | undefined;
    try {
      await client.connect({
        host: this.settings.host,
        port: this.settings.port,
        username: this.settings.username,
        password: this.credentials.password || undefined,
        privateKey: this.credentials.privateKey || undefined,
        readyTimeout: this.settings.timeoutMs,
        retries: 0,
        hostVerifier: (key: Buffer) => {
          seenKey = createHash("sha256").update(key).digest("base64").replace(/=+$/, "");
          return !pinned || seenKey === pinned.replace(/=+$/, "");
        },
      });
    } catch (error) {
      await client.end().catch(() => undefined);
      if (pinned && seenKey && seenKey !== pinned.replace(/=+$/, ""))
        throw new DeliveryError(`${this.#where} presented host key SHA256:${seenKey}, not the pinned one`, false);
      throw sftpReason(error, this.#where);
    }
    return client;
  }

  #remote(name: string): string {
    return path.posix.join(this.settings.directory, name);
  }

  async test(): Promise<string> {
    const client = await this.#connect();
    try {
      const exists = await client.exists(this.settings.directory);
      if (exists !== "d")
        throw new DeliveryError(`${this.#where}: ${this.settings.directory} is not a directory`, false);
      const probe = this.#remote(`.dams-probe-${randomUUID()}`);
      await client.put(Buffer.alloc(0), probe);
      await client.delete(probe);
    } catch (error) {
      throw sftpReason(error, this.#where);
    } finally {
      await client.end().catch(() => undefined);
    }
    return `${this.settings.username}@${this.#where} accepted the login and a write to ${this.settings.directory}`;
  }

  async deliver(delivery: DeliveryPackage): Promise<void> {
    const client = await this.#connect();
    try {
      if (delivery.action === "kill") {
        for (const entry of await client.list(this.settings.directory)) {
          if (entry.name.startsWith(`${delivery.baseName}.`) && entry.name !== delivery.item.name)
            await client.delete(this.#remote(entry.name), true);
        }
      }
      const put = async (name: string, body: Buffer | NodeJS.ReadableStream) => {
        const temporary = this.#remote(`.${name}.${delivery.deliveryId}.part`);
        await client.put(body, temporary);
        // rename fails when the target exists (SFTP v3): a resent item replaces the earlier one.
        if (await client.exists(this.#remote(name))) await client.delete(this.#remote(name), true);
        await client.rename(temporary, this.#remote(name));
      };
      for (const file of delivery.action === "publish" ? delivery.files : []) await put(file.name, await file.open());
      await put(delivery.item.name, delivery.item.body);
    } catch (error) {
      throw sftpReason(error, this.#where);
    } finally {
      await client.end().catch(() => undefined);
    }
  }
}
