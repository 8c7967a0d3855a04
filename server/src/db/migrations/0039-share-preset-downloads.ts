import { sql } from "kysely";
import type { DialectAdapter } from "../dialect/index.js";
import type { AnyKysely } from "./index.js";

const POLICIES_BEFORE = sql`download_policy in ('none', 'preview', 'original')`;
const POLICIES = sql`download_policy in ('none', 'preview', 'preset', 'original')`;

/**
 * A share may let visitors download a download preset's rendition
 * (docs/sharing.md): `download_policy` 'preset' with `download_preset_id`.
 * No foreign key: a deleted preset leaves the share with no download, which
 * the visit checks. PostgreSQL changes the check in place; SQLite cannot, so
 * `shares` is rebuilt, and `share_items` with it (its foreign key names the
 * table; dropping `shares` under it would cascade to its rows).
 */
export function sharePresetDownloads(adapter: DialectAdapter) {
  const types = adapter.columnTypes;

  async function rebuildSqlite(db: AnyKysely, policies: typeof POLICIES, withPreset: boolean): Promise<void> {
    let shares = db.schema
      .createTable("shares_new")
      .addColumn("id", types.uuid, (column) => column.primaryKey())
      .addColumn("token_hash", "text", (column) => column.notNull().unique())
      .addColumn("kind", "text", (column) =>
        column.notNull().check(sql`kind in ('story', 'stories', 'folder', 'search')`),
      )
      .addColumn("title", "text", (column) => column.notNull())
      .addColumn("message", "text")
      .addColumn("library_id", "text")
      .addColumn("folder_id", types.uuid)
      .addColumn("search_query", types.json)
      .addColumn("password_hash", "text")
      .addColumn("expires_at", types.timestamp)
      .addColumn("view_limit", "integer")
      .addColumn("download_limit", "integer")
      .addColumn("views", "integer", (column) => column.notNull().defaultTo(0))
      .addColumn("downloads", "integer", (column) => column.notNull().defaultTo(0))
      .addColumn("download_policy", "text", (column) => column.notNull().check(policies))
      .addColumn("metadata", "text", (column) => column.notNull().check(sql`metadata in ('basic', 'all')`))
      .addColumn("keep_location", types.boolean, (column) => column.notNull())
      .addColumn("created_by", types.uuid, (column) => column.references("users.id").onDelete("set null"))
      .addColumn("created_at", types.timestamp, (column) => column.notNull())
      .addColumn("updated_at", types.timestamp, (column) => column.notNull())
      .addColumn("revoked_at", types.timestamp)
      .addColumn("last_visit_at", types.timestamp);
    if (withPreset) shares = shares.addColumn("download_preset_id", types.uuid);
    await shares.execute();
    const columns = [
      "id, token_hash, kind, title, message, library_id, folder_id, search_query, password_hash, expires_at",
      "view_limit, download_limit, views, downloads, download_policy, metadata, keep_location, created_by",
      "created_at, updated_at, revoked_at, last_visit_at",
    ].join(", ");
    await sql`insert into shares_new (${sql.raw(columns)}) select ${sql.raw(columns)} from shares`.execute(db);
    await db.schema
      .createTable("share_items_new")
      .addColumn("share_id", types.uuid, (column) => column.notNull().references("shares_new.id").onDelete("cascade"))
      .addColumn("position", "integer", (column) => column.notNull())
      .addColumn("library_id", "text", (column) => column.notNull())
      .addColumn("story_id", types.uuid, (column) => column.notNull().references("stories.id").onDelete("cascade"))
      .addPrimaryKeyConstraint("share_items_pk", ["share_id", "story_id"])
      .execute();
    await sql`insert into share_items_new (share_id, position, library_id, story_id)
      select share_id, position, library_id, story_id from share_items`.execute(db);
    await db.schema.dropTable("share_items").execute();
    await db.schema.dropTable("shares").execute();
    // SQLite rewrites share_items_new's foreign key to follow the rename.
    await db.schema.alterTable("shares_new").renameTo("shares").execute();
    await db.schema.alterTable("share_items_new").renameTo("share_items").execute();
    await db.schema.createIndex("shares_created_by_idx").on("shares").columns(["created_by", "created_at"]).execute();
    await db.schema.createIndex("share_items_story_idx").on("share_items").column("story_id").execute();
  }

  return {
    async up(db: AnyKysely): Promise<void> {
      if (adapter.name === "postgres") {
        await db.schema.alterTable("shares").addColumn("download_preset_id", types.uuid).execute();
        await db.schema.alterTable("shares").dropConstraint("shares_download_policy_check").execute();
        await db.schema.alterTable("shares").addCheckConstraint("shares_download_policy_check", POLICIES).execute();
        return;
      }
      await rebuildSqlite(db, POLICIES, true);
    },
    async down(db: AnyKysely): Promise<void> {
      await db
        .updateTable("shares")
        .set({ download_policy: "preview" })
        .where("download_policy", "=", "preset")
        .execute();
      if (adapter.name === "postgres") {
        await db.schema.alterTable("shares").dropConstraint("shares_download_policy_check").execute();
        await db.schema
          .alterTable("shares")
          .addCheckConstraint("shares_download_policy_check", POLICIES_BEFORE)
          .execute();
        await db.schema.alterTable("shares").dropColumn("download_preset_id").execute();
        return;
      }
      await rebuildSqlite(db, POLICIES_BEFORE, false);
    },
  };
}
