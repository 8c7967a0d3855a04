import type { AddressPolicy } from "../../url-ingest/address-policy.js";
import type { ChannelSettings } from "../channels.schema.js";
import { EmailTransport } from "./email.js";
import { FolderTransport } from "./folder.js";
import { HttpPushTransport } from "./http-push.js";
import { S3Transport } from "./s3.js";
import { SftpTransport } from "./sftp.js";
import type { Transport } from "./transport.js";

export { DeliveryError, type DeliveryPackage, type OutgoingFile, type Transport } from "./transport.js";

/** The transport of a channel's kind, with its settings and decrypted credentials. */
export function transportFor(
  channel: ChannelSettings,
  credentials: Record<string, string>,
  policy: AddressPolicy,
): Transport {
  switch (channel.kind) {
    case "http":
      return new HttpPushTransport(channel.settings, credentials, policy);
    case "folder":
      return new FolderTransport(channel.settings);
    case "sftp":
      return new SftpTransport(channel.settings, credentials);
    case "s3":
      return new S3Transport(channel.settings, credentials);
    case "email":
      return new EmailTransport(channel.settings, credentials);
  }
}
