import { sql } from "kysely";
import type { DialectAdapter } from "../dialect/index.js";
import type { AnyKysely } from "./index.js";

/**
 * Share links with their options (issue 16, docs/sharing.md): a share points
 * at one story, several stories (share_items, in order), a folder or a saved
 * search; expiry (null: never), an argon2id password hash, view and download
 * limits and their counts, what a visitor may download and which metadata
 * they see. The administrator's limits are one row of share_settings. The
 * links of migration 0007 (one story each) are carried over as `story`
 * shares that let visitors download previews.
 */
export function shareLinks(adapter: DialectAdapter) {
  const types = adapter.columnTypes;
  return {
    async up(db: AnyKysely): Promise<void> {
      await db.schema.alterTable("shares").renameTo("shares_0007").execute();
      await db.schema.dropIndex("shares_story_idx").execute();
      await db.schema
        .createTable("shares")
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
        .addColumn("download_policy", "text", (column) =>
          column.notNull().check(sql`download_policy in ('none', 'preview', 'original')`),
        )
        .addColumn("metadata", "text", (column) => column.notNull().check(sql`metadata in ('basic', 'all')`))
        .addColumn("keep_location", types.boolean, (column) => column.notNull())
        .addColumn("created_by", types.uuid, (column) => column.references("users.id").onDelete("set null"))
        .addColumn("created_at", types.timestamp, (column) => column.notNull())
        .addColumn("updated_at", types.timestamp, (column) => column.notNull())
        .addColumn("revoked_at", types.timestamp)
        .addColumn("last_visit_at", types.timestamp)
        .execute();
      await db.schema.createIndex("shares_created_by_idx").on("shares").columns(["created_by", "created_at"]).execute();
      await db.schema
        .createTable("share_items")
        .addColumn("share_id", types.uuid, (column) => column.notNull().references("shares.id").onDelete("cascade"))
        .addColumn("position", "integer", (column) => column.notNull())
        .addColumn("library_id", "text", (column) => column.notNull())
        .addColumn("story_id", types.uuid, (column) => column.notNull().references("stories.id").onDelete("cascade"))
        .addPrimaryKeyConstraint("share_items_pk", ["share_id", "story_id"])
        .execute();
      await db.schema.createIndex("share_items_story_idx").on("share_items").column("story_id").execute();
      await db.schema
        .createTable("share_settings")
        .addColumn("id", "integer", (column) => column.primaryKey().check(sql`id = 1`))
        .addColumn("max_days", "integer", (column) => column.notNull())
        .addColumn("allow_never", types.boolean, (column) => column.notNull())
        .addColumn("updated_by", "text")
        .addColumn("updated_at", types.timestamp, (column) => column.notNull())
        .execute();
      const now = new Date().toISOString();
      await db
        .insertInto("share_settings")
        .values({ id: 1, max_days: 90, allow_never: adapter.name === "postgres" ? false : 0, updated_at: now })
        .execute();
      const old = await db.selectFrom("shares_0007").selectAll().execute();
      for (const row of old) {
        await db
          .insertInto("shares")
          .values({
            id: row.id,
            token_hash: row.token_hash,
            kind: "story",
            title: "",
            library_id: row.library_id,
            expires_at: row.expires_at,
            download_policy: "preview",
            metadata: "basic",
            keep_location: adapter.name === "postgres" ? false : 0,
            created_by: row.created_by,
            created_at: row.created_at,
            updated_at: row.created_at,
            revoked_at: row.revoked_at,
          })
          .execute();
        await db
          .insertInto("share_items")
          .values({ share_id: row.id, position: 0, library_id: row.library_id, story_id: row.story_id })
          .execute();
      }
      await db.schema.dropTable("shares_0007").execute();
    },
    async down(db: AnyKysely): Promise<void> {
      await db.schema.dropTable("share_settings").execute();
      await db.schema.dropTable("share_items").execute();
      await db.schema.dropTable("shares").execute();
      await db.schema
        .createTable("shares")
        .addColumn("id", types.uuid, (column) => column.primaryKey())
        .addColumn("token_hash", "text", (column) => column.notNull().unique())
        .addColumn("library_id", "text", (column) => column.notNull())
        .addColumn("story_id", types.uuid, (column) => column.notNull().references("stories.id").onDelete("cascade"))
        .addColumn("created_by", types.uuid, (column) => column.references("users.id").onDelete("set null"))
        .addColumn("created_at", types.timestamp, (column) => column.notNull())
        .addColumn("expires_at", types.timestamp, (column) => column.notNull())
        .addColumn("revoked_at", types.timestamp)
        .execute();
      await db.schema.createIndex("shares_story_idx").on("shares").column("story_id").execute();
    },
  };
}
