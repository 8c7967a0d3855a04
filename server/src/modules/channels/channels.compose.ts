import type { Db } from "../../db/database.js";
import type { AuditLog } from "../audit/audit-log.js";
import { AddressPolicy } from "../url-ingest/address-policy.js";
import { ChannelsRepository } from "./channels.repository.js";
import { ChannelsService } from "./channels.service.js";
import { CredentialsCipher } from "./credentials-cipher.js";

/** Builds the channels service once (called by app.ts). */
export function buildChannels(
  db: Db,
  deps: {
    audit: AuditLog;
    credentialsKey: Buffer;
    allowPrivate: string[];
    /** A download preset's story type (the presets module), undefined when there is none. */
    presetType: (id: string) => Promise<string | undefined>;
    /** How many deliveries to a channel are still to be sent (the publishing module). */
    openDeliveries: (channelId: string) => Promise<number>;
  },
): ChannelsService {
  return new ChannelsService({
    db,
    channels: new ChannelsRepository(db.kysely, db.adapter),
    cipher: new CredentialsCipher(deps.credentialsKey),
    policy: new AddressPolicy(deps.allowPrivate),
    audit: deps.audit,
    presetType: deps.presetType,
    openDeliveries: deps.openDeliveries,
  });
}
