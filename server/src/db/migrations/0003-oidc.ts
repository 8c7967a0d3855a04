import type { DialectAdapter } from "../dialect/index.js";
import type { AnyKysely } from "./index.js";

/**
 * Storage of the embedded OpenID Connect provider (sessions, interactions,
 * codes, refresh tokens, grants), the login/registration throttle, and the
 * subject of users provisioned from an external issuer.
 */
export function oidc(adapter: DialectAdapter) {
  const types = adapter.columnTypes;
  return {
    async up(db: AnyKysely): Promise<void> {
      await db.schema
        .createTable("oidc_payloads")
        .addColumn("type", "text", (column) => column.notNull())
        .addColumn("id", "text", (column) => column.notNull())
        .addColumn("payload", types.json, (column) => column.notNull())
        .addColumn("grant_id", "text")
        .addColumn("user_code", "text")
        .addColumn("uid", "text")
        .addColumn("expires_at", types.timestamp)
        .addColumn("consumed_at", types.timestamp)
        .addPrimaryKeyConstraint("oidc_payloads_pk", ["type", "id"])
        .execute();
      await db.schema.createIndex("oidc_payloads_grant_idx").on("oidc_payloads").column("grant_id").execute();
      await db.schema.createIndex("oidc_payloads_uid_idx").on("oidc_payloads").columns(["type", "uid"]).execute();
      await db.schema
        .createIndex("oidc_payloads_user_code_idx")
        .on("oidc_payloads")
        .columns(["type", "user_code"])
        .execute();
      await db.schema.createIndex("oidc_payloads_expires_idx").on("oidc_payloads").column("expires_at").execute();

      await db.schema
        .createTable("auth_throttle")
        .addColumn("id", types.uuid, (column) => column.primaryKey())
        .addColumn("key", "text", (column) => column.notNull())
        .addColumn("at", types.timestamp, (column) => column.notNull())
        .execute();
      await db.schema.createIndex("auth_throttle_key_at_idx").on("auth_throttle").columns(["key", "at"]).execute();

      await db.schema.alterTable("users").addColumn("external_subject", "text").execute();
      await db.schema
        .createIndex("users_external_subject_unique")
        .unique()
        .on("users")
        .column("external_subject")
        .execute();
    },
    async down(db: AnyKysely): Promise<void> {
      await db.schema.dropIndex("users_external_subject_unique").execute();
      await db.schema.alterTable("users").dropColumn("external_subject").execute();
      await db.schema.dropTable("auth_throttle").execute();
      await db.schema.dropTable("oidc_payloads").execute();
    },
  };
}
