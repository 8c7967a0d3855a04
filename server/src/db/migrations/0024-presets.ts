import { sql } from "kysely";
import type { DialectAdapter } from "../dialect/index.js";
import type { AnyKysely } from "./index.js";

/**
 * Watermark and download presets (issue 17, modules/presets, docs/presets.md):
 * a preset's settings are one JSON value checked by the module's zod schema;
 * `revision` grows with every edit, and a download preset's renditions are
 * cached per (preset, story, version) for the revision they were made at.
 */
export function presets(adapter: DialectAdapter) {
  const types = adapter.columnTypes;
  return {
    async up(db: AnyKysely): Promise<void> {
      await db.schema
        .createTable("watermark_presets")
        .addColumn("id", types.uuid, (column) => column.primaryKey())
        .addColumn("name", "text", (column) => column.notNull().unique())
        .addColumn("settings", types.json, (column) => column.notNull())
        // The image of an image mark (base64, at most 2 MB decoded): small, and every node reads it from here.
        .addColumn("image_data", "text")
        .addColumn("image_type", "text")
        .addColumn("image_width", "integer")
        .addColumn("image_height", "integer")
        .addColumn("revision", "integer", (column) => column.notNull())
        .addColumn("created_by", "text")
        .addColumn("created_at", types.timestamp, (column) => column.notNull())
        .addColumn("updated_at", types.timestamp, (column) => column.notNull())
        .execute();
      await db.schema
        .createTable("download_presets")
        .addColumn("id", types.uuid, (column) => column.primaryKey())
        .addColumn("name", "text", (column) => column.notNull().unique())
        .addColumn("story_type", "text", (column) =>
          column.notNull().check(sql`story_type in ('photo', 'video', 'audio')`),
        )
        .addColumn("settings", types.json, (column) => column.notNull())
        .addColumn("watermark_preset_id", types.uuid, (column) => column.references("watermark_presets.id"))
        .addColumn("role_ids", types.json, (column) => column.notNull())
        .addColumn("enabled", types.boolean, (column) => column.notNull())
        .addColumn("revision", "integer", (column) => column.notNull())
        .addColumn("created_by", "text")
        .addColumn("created_at", types.timestamp, (column) => column.notNull())
        .addColumn("updated_at", types.timestamp, (column) => column.notNull())
        .execute();
      await db.schema
        .createTable("preset_renditions")
        .addColumn("id", types.uuid, (column) => column.primaryKey())
        .addColumn("preset_id", types.uuid, (column) =>
          column.notNull().references("download_presets.id").onDelete("cascade"),
        )
        .addColumn("revision", "integer", (column) => column.notNull())
        .addColumn("library_id", "text", (column) => column.notNull())
        .addColumn("story_id", types.uuid, (column) => column.notNull().references("stories.id").onDelete("cascade"))
        .addColumn("version_no", "integer", (column) => column.notNull())
        .addColumn("state", "text", (column) =>
          column.notNull().check(sql`state in ('queued', 'running', 'done', 'failed')`),
        )
        .addColumn("blob_key", "text")
        .addColumn("mime", "text")
        .addColumn("size", "bigint")
        .addColumn("width", "integer")
        .addColumn("height", "integer")
        .addColumn("error", "text")
        .addColumn("created_at", types.timestamp, (column) => column.notNull())
        .addColumn("updated_at", types.timestamp, (column) => column.notNull())
        .addUniqueConstraint("preset_renditions_key", ["preset_id", "story_id", "version_no"])
        .execute();
      await db.schema.createIndex("preset_renditions_story_idx").on("preset_renditions").column("story_id").execute();
    },
    async down(db: AnyKysely): Promise<void> {
      await db.schema.dropTable("preset_renditions").execute();
      await db.schema.dropTable("download_presets").execute();
      await db.schema.dropTable("watermark_presets").execute();
    },
  };
}
