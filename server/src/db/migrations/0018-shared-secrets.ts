import type { DialectAdapter } from "../dialect/index.js";
import type { AnyKysely } from "./index.js";

/**
 * The keys every node of a deployment must share (OIDC signing and cookie
 * keys, the media-URL key, the channel credential key): generated once for
 * the database when not configured, so a second node uses the same ones; when
 * they are configured, only their fingerprint, so a node without them (or
 * with others) refuses to start instead of signing with keys of its own.
 */
export function sharedSecrets(adapter: DialectAdapter) {
  const types = adapter.columnTypes;
  return {
    async up(db: AnyKysely): Promise<void> {
      await db.schema
        .createTable("shared_secrets")
        .addColumn("name", "text", (column) => column.primaryKey())
        .addColumn("value", "text")
        .addColumn("fingerprint", "text", (column) => column.notNull())
        .addColumn("source", "text", (column) => column.notNull())
        .addColumn("created_at", types.timestamp, (column) => column.notNull())
        .addColumn("updated_at", types.timestamp, (column) => column.notNull())
        .execute();
    },
    async down(db: AnyKysely): Promise<void> {
      await db.schema.dropTable("shared_secrets").execute();
    },
  };
}
