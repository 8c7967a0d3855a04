import { sql } from "kysely";
import type { DialectAdapter } from "../dialect/index.js";
import type { AnyKysely } from "./index.js";

/**
 * The network disk (issue 16, modules/disk): each user's folder tree and
 * files (bytes in the blob store, registered in `blobs`), a trash (rows with
 * `trashed_at`, the one the user deleted marked `trash_root`), quotas set by
 * an administrator and shares of a folder or file with users, a role or
 * everyone.
 */
export function disk(adapter: DialectAdapter) {
  const types = adapter.columnTypes;
  return {
    async up(db: AnyKysely): Promise<void> {
      await db.schema
        .createTable("disk_nodes")
        .addColumn("id", types.uuid, (column) => column.primaryKey())
        .addColumn("owner_id", types.uuid, (column) => column.notNull().references("users.id").onDelete("cascade"))
        .addColumn("parent_id", types.uuid, (column) => column.references("disk_nodes.id").onDelete("cascade"))
        .addColumn("kind", "text", (column) => column.notNull().check(sql`kind in ('folder', 'file')`))
        .addColumn("name", "text", (column) => column.notNull())
        .addColumn("blob_key", "text")
        .addColumn("size", "bigint", (column) => column.notNull().defaultTo(0))
        .addColumn("mime", "text")
        .addColumn("sha256", "text")
        .addColumn("created_at", types.timestamp, (column) => column.notNull())
        .addColumn("updated_at", types.timestamp, (column) => column.notNull())
        .addColumn("trashed_at", types.timestamp)
        .addColumn("trash_root", types.boolean, (column) => column.notNull().defaultTo(sql`false`))
        .execute();
      await db.schema
        .createIndex("disk_nodes_parent_idx")
        .on("disk_nodes")
        .columns(["owner_id", "parent_id", "name"])
        .execute();
      await db.schema.createIndex("disk_nodes_parent_id_idx").on("disk_nodes").column("parent_id").execute();
      await db.schema.createIndex("disk_nodes_trash_idx").on("disk_nodes").columns(["trashed_at"]).execute();
      await db.schema
        .createTable("disk_quotas")
        .addColumn("user_id", types.uuid, (column) => column.primaryKey().references("users.id").onDelete("cascade"))
        .addColumn("quota_bytes", "bigint", (column) => column.notNull())
        .addColumn("updated_by", "text")
        .addColumn("updated_at", types.timestamp, (column) => column.notNull())
        .execute();
      await db.schema
        .createTable("disk_shares")
        .addColumn("id", types.uuid, (column) => column.primaryKey())
        .addColumn("node_id", types.uuid, (column) => column.notNull().references("disk_nodes.id").onDelete("cascade"))
        .addColumn("owner_id", types.uuid, (column) => column.notNull().references("users.id").onDelete("cascade"))
        .addColumn("grantee_kind", "text", (column) =>
          column.notNull().check(sql`grantee_kind in ('user', 'role', 'everyone')`),
        )
        .addColumn("grantee_id", "text", (column) => column.notNull())
        .addColumn("level", "text", (column) => column.notNull().check(sql`level in ('view', 'download', 'edit')`))
        .addColumn("created_at", types.timestamp, (column) => column.notNull())
        .addUniqueConstraint("disk_shares_grantee_unique", ["node_id", "grantee_kind", "grantee_id"])
        .execute();
      await db.schema
        .createIndex("disk_shares_grantee_idx")
        .on("disk_shares")
        .columns(["grantee_kind", "grantee_id"])
        .execute();
      await db.schema.createIndex("disk_shares_owner_idx").on("disk_shares").column("owner_id").execute();
    },
    async down(db: AnyKysely): Promise<void> {
      await db.schema.dropTable("disk_shares").execute();
      await db.schema.dropTable("disk_quotas").execute();
      await db.schema.dropTable("disk_nodes").execute();
    },
  };
}
