import { type Kysely, sql } from "kysely";
import type { DialectAdapter } from "../dialect/index.js";
import type { AnyKysely } from "./index.js";

// Frozen copies: a migration must not change when today's code does.
const seedLibraries = [
  { id: "product", name: "成品库", kind: "default", description: "finished stories (the default library)", sort: 1 },
  { id: "material", name: "素材库", kind: "download", description: "raw material and downloads", sort: 2 },
  { id: "personal", name: "个人库", kind: "personal", description: "personal work in progress", sort: 3 },
  { id: "department", name: "部门库", kind: "department", description: "shared by a department", sort: 4 },
  { id: "publish", name: "发布库", kind: "publish", description: "stories ready for publication", sort: 5 },
];

/**
 * Libraries, folder trees, stories with their versions and files, relations,
 * composite members, favourites, story actions, user settings, publish
 * records and share tokens.
 */
export function stories(adapter: DialectAdapter) {
  const types = adapter.columnTypes;
  return {
    async up(db: AnyKysely): Promise<void> {
      const now = new Date().toISOString();
      await db.schema
        .createTable("libraries")
        .addColumn("id", "text", (column) => column.primaryKey())
        .addColumn("name", "text", (column) => column.notNull())
        .addColumn("kind", "text", (column) =>
          column.notNull().check(sql`kind in ('default', 'download', 'personal', 'department', 'publish')`),
        )
        .addColumn("description", "text")
        .addColumn("sort", "integer", (column) => column.notNull().defaultTo(0))
        .addColumn("created_at", types.timestamp, (column) => column.notNull())
        .execute();
      await db
        .insertInto("libraries")
        .values(seedLibraries.map((library) => ({ ...library, created_at: now })))
        .execute();

      await db.schema
        .createTable("folders")
        .addColumn("id", types.uuid, (column) => column.primaryKey())
        .addColumn("library_id", "text", (column) => column.notNull().references("libraries.id").onDelete("cascade"))
        .addColumn("parent_id", types.uuid, (column) => column.references("folders.id").onDelete("cascade"))
        .addColumn("name", "text", (column) => column.notNull())
        .addColumn("sort", "integer", (column) => column.notNull().defaultTo(0))
        .addColumn("created_by", types.uuid, (column) => column.references("users.id").onDelete("set null"))
        .addColumn("created_at", types.timestamp, (column) => column.notNull())
        .addColumn("updated_at", types.timestamp, (column) => column.notNull())
        .execute();
      // Names are unique among siblings; NULL parents need their own (partial) index.
      await db.schema
        .createIndex("folders_sibling_name_idx")
        .on("folders")
        .columns(["library_id", "parent_id", "name"])
        .unique()
        .where(sql.ref("parent_id"), "is not", null)
        .execute();
      await db.schema
        .createIndex("folders_root_name_idx")
        .on("folders")
        .columns(["library_id", "name"])
        .unique()
        .where(sql.ref("parent_id"), "is", null)
        .execute();

      await db.schema
        .createTable("stories")
        .addColumn("id", types.uuid, (column) => column.primaryKey())
        .addColumn("library_id", "text", (column) => column.notNull().references("libraries.id"))
        .addColumn("folder_id", types.uuid, (column) => column.references("folders.id").onDelete("set null"))
        .addColumn("type", "text", (column) =>
          column.notNull().check(sql`type in ('photo', 'video', 'audio', 'composite')`),
        )
        .addColumn("half_product", types.boolean, (column) => column.notNull())
        .addColumn("status", "text", (column) =>
          column.notNull().check(sql`status in ('draft', 'committed', 'published')`),
        )
        .addColumn("title", "text", (column) => column.notNull())
        .addColumn("caption", "text", (column) => column.notNull())
        .addColumn("authors", types.json, (column) => column.notNull())
        .addColumn("source", "text")
        .addColumn("keywords", types.json, (column) => column.notNull())
        .addColumn("tags", types.json, (column) => column.notNull())
        .addColumn("theme", "text")
        .addColumn("category", "text")
        .addColumn("properties", types.json, (column) => column.notNull())
        .addColumn("oid", "text", (column) => column.notNull().unique())
        .addColumn("version_no", "integer", (column) => column.notNull())
        .addColumn("cover_key", "text")
        .addColumn("content_sha256", "text")
        .addColumn("perceptual_hash", "text")
        .addColumn("width", "integer")
        .addColumn("height", "integer")
        .addColumn("duration", "double precision")
        .addColumn("size", "bigint")
        .addColumn("mime", "text")
        .addColumn("original_name", "text")
        .addColumn("captured_at", types.timestamp)
        .addColumn("gps", types.json)
        .addColumn("processing_state", "text", (column) =>
          column.notNull().check(sql`processing_state in ('none', 'queued', 'running', 'done', 'failed')`),
        )
        .addColumn("processing_error", "text")
        .addColumn("created_by", types.uuid, (column) => column.references("users.id").onDelete("set null"))
        .addColumn("created_at", types.timestamp, (column) => column.notNull())
        .addColumn("updated_by", types.uuid, (column) => column.references("users.id").onDelete("set null"))
        .addColumn("updated_at", types.timestamp, (column) => column.notNull())
        .execute();
      await db.schema
        .createIndex("stories_library_folder_idx")
        .on("stories")
        .columns(["library_id", "folder_id"])
        .execute();
      await db.schema
        .createIndex("stories_library_sha256_idx")
        .on("stories")
        .columns(["library_id", "content_sha256"])
        .execute();
      await db.schema
        .createIndex("stories_library_type_idx")
        .on("stories")
        .columns(["library_id", "type", "status"])
        .execute();
      await db.schema.createIndex("stories_created_by_idx").on("stories").column("created_by").execute();
      await db.schema.createIndex("stories_updated_at_idx").on("stories").column("updated_at").execute();

      await db.schema
        .createTable("story_versions")
        .addColumn("story_id", types.uuid, (column) => column.notNull().references("stories.id").onDelete("cascade"))
        .addColumn("version_no", "integer", (column) => column.notNull())
        .addColumn("oid", "text", (column) => column.notNull().unique())
        .addColumn("blob_key", "text")
        .addColumn("sha256", "text")
        .addColumn("size", "bigint")
        .addColumn("mime", "text")
        .addColumn("original_name", "text")
        .addColumn("note", "text")
        .addColumn("created_by", types.uuid, (column) => column.references("users.id").onDelete("set null"))
        .addColumn("created_at", types.timestamp, (column) => column.notNull())
        .addPrimaryKeyConstraint("story_versions_pk", ["story_id", "version_no"])
        .execute();

      await db.schema
        .createTable("story_files")
        .addColumn("id", types.uuid, (column) => column.primaryKey())
        .addColumn("story_id", types.uuid, (column) => column.notNull().references("stories.id").onDelete("cascade"))
        .addColumn("version_no", "integer", (column) => column.notNull())
        .addColumn("role", "text", (column) => column.notNull())
        .addColumn("blob_key", "text", (column) => column.notNull())
        .addColumn("mime", "text", (column) => column.notNull())
        .addColumn("size", "bigint", (column) => column.notNull())
        .addColumn("width", "integer")
        .addColumn("height", "integer")
        .addColumn("created_at", types.timestamp, (column) => column.notNull())
        .addUniqueConstraint("story_files_role_unique", ["story_id", "version_no", "role"])
        .execute();
      await db.schema.createIndex("story_files_blob_idx").on("story_files").column("blob_key").execute();

      await db.schema
        .createTable("story_relations")
        .addColumn("id", types.uuid, (column) => column.primaryKey())
        .addColumn("story_id", types.uuid, (column) => column.notNull().references("stories.id").onDelete("cascade"))
        .addColumn("related_story_id", types.uuid, (column) =>
          column.notNull().references("stories.id").onDelete("cascade"),
        )
        .addColumn("type", "text", (column) => column.notNull())
        .addColumn("created_by", types.uuid, (column) => column.references("users.id").onDelete("set null"))
        .addColumn("created_at", types.timestamp, (column) => column.notNull())
        .addUniqueConstraint("story_relations_unique", ["story_id", "related_story_id", "type"])
        .addCheckConstraint("story_relations_not_self", sql`story_id <> related_story_id`)
        .execute();
      await db.schema
        .createIndex("story_relations_related_idx")
        .on("story_relations")
        .column("related_story_id")
        .execute();

      await db.schema
        .createTable("composite_members")
        .addColumn("composite_id", types.uuid, (column) =>
          column.notNull().references("stories.id").onDelete("cascade"),
        )
        .addColumn("member_id", types.uuid, (column) => column.notNull().references("stories.id").onDelete("cascade"))
        .addColumn("sort", "integer", (column) => column.notNull())
        .addPrimaryKeyConstraint("composite_members_pk", ["composite_id", "member_id"])
        .execute();
      await db.schema.createIndex("composite_members_member_idx").on("composite_members").column("member_id").execute();

      await db.schema
        .createTable("favorites")
        .addColumn("user_id", types.uuid, (column) => column.notNull().references("users.id").onDelete("cascade"))
        .addColumn("library_id", "text", (column) => column.notNull().references("libraries.id").onDelete("cascade"))
        .addColumn("story_id", types.uuid, (column) => column.notNull().references("stories.id").onDelete("cascade"))
        .addColumn("type", "text", (column) => column.notNull())
        .addColumn("created_at", types.timestamp, (column) => column.notNull())
        .addPrimaryKeyConstraint("favorites_pk", ["user_id", "story_id"])
        .execute();

      // No foreign key to stories: the trail of a deleted story stays.
      await db.schema
        .createTable("story_actions")
        .addColumn("id", types.uuid, (column) => column.primaryKey())
        .addColumn("library_id", "text", (column) => column.notNull())
        .addColumn("story_id", types.uuid, (column) => column.notNull())
        .addColumn("user_id", types.uuid, (column) => column.references("users.id").onDelete("set null"))
        .addColumn("username", "text")
        .addColumn("action", "text", (column) => column.notNull())
        .addColumn("at", types.timestamp, (column) => column.notNull())
        .addColumn("ip", "text")
        .addColumn("details", types.json, (column) => column.notNull())
        .execute();
      await db.schema.createIndex("story_actions_story_idx").on("story_actions").columns(["story_id", "at"]).execute();

      await db.schema
        .createTable("user_settings")
        .addColumn("user_id", types.uuid, (column) => column.primaryKey().references("users.id").onDelete("cascade"))
        .addColumn("default_library_id", "text", (column) => column.references("libraries.id").onDelete("set null"))
        .addColumn("default_folder_id", types.uuid, (column) => column.references("folders.id").onDelete("set null"))
        .addColumn("updated_at", types.timestamp, (column) => column.notNull())
        .execute();

      await db.schema
        .createTable("publish_records")
        .addColumn("id", types.uuid, (column) => column.primaryKey())
        .addColumn("library_id", "text", (column) => column.notNull())
        .addColumn("story_id", types.uuid, (column) => column.notNull().references("stories.id").onDelete("cascade"))
        .addColumn("version_no", "integer", (column) => column.notNull())
        .addColumn("channel", "text")
        .addColumn("note", "text")
        .addColumn("status", "text", (column) => column.notNull())
        .addColumn("published_by", types.uuid, (column) => column.references("users.id").onDelete("set null"))
        .addColumn("published_at", types.timestamp, (column) => column.notNull())
        .execute();
      await db.schema.createIndex("publish_records_story_idx").on("publish_records").column("story_id").execute();

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
    async down(db: Kysely<unknown>): Promise<void> {
      for (const table of [
        "shares",
        "publish_records",
        "user_settings",
        "story_actions",
        "favorites",
        "composite_members",
        "story_relations",
        "story_files",
        "story_versions",
        "stories",
        "folders",
        "libraries",
      ]) {
        await db.schema.dropTable(table).execute();
      }
    },
  };
}
