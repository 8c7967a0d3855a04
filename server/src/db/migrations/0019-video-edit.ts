import { sql } from "kysely";
import type { DialectAdapter } from "../dialect/index.js";
import type { AnyKysely } from "./index.js";

/**
 * The video editor (docs/video-editor.md): a user's projects (the EDL they
 * autosave and reopen) and the renders of EDLs, each a job whose MP4 waits
 * in the blob store until it becomes a story or expires.
 */
export function videoEdit(adapter: DialectAdapter) {
  const types = adapter.columnTypes;
  return {
    async up(db: AnyKysely): Promise<void> {
      await db.schema
        .createTable("video_edit_projects")
        .addColumn("id", types.uuid, (column) => column.primaryKey())
        .addColumn("owner_id", types.uuid, (column) => column.notNull().references("users.id").onDelete("cascade"))
        .addColumn("kind", "text", (column) => column.notNull().check(sql`kind in ('video', 'slideshow')`))
        .addColumn("title", "text", (column) => column.notNull())
        .addColumn("edl", types.json, (column) => column.notNull())
        .addColumn("revision", "integer", (column) => column.notNull())
        .addColumn("story_library_id", "text")
        .addColumn("story_id", types.uuid)
        .addColumn("created_at", types.timestamp, (column) => column.notNull())
        .addColumn("updated_at", types.timestamp, (column) => column.notNull())
        .execute();
      await db.schema
        .createIndex("video_edit_projects_owner_idx")
        .on("video_edit_projects")
        .columns(["owner_id", "updated_at"])
        .execute();
      await db.schema
        .createTable("video_edit_renders")
        .addColumn("id", types.uuid, (column) => column.primaryKey())
        .addColumn("user_id", types.uuid, (column) => column.notNull().references("users.id").onDelete("cascade"))
        .addColumn("project_id", types.uuid, (column) =>
          column.references("video_edit_projects.id").onDelete("set null"),
        )
        .addColumn("edl", types.json, (column) => column.notNull())
        .addColumn("job_id", types.uuid)
        .addColumn("output_key", "text")
        .addColumn("poster_key", "text")
        .addColumn("method", "text")
        .addColumn("reason", "text")
        .addColumn("duration", "double precision")
        .addColumn("width", "integer")
        .addColumn("height", "integer")
        .addColumn("size", "bigint")
        .addColumn("story_library_id", "text")
        .addColumn("story_id", types.uuid)
        .addColumn("created_at", types.timestamp, (column) => column.notNull())
        .addColumn("finished_at", types.timestamp)
        .execute();
      // The expiry sweep finds finished renders no story took, oldest first.
      await db.schema
        .createIndex("video_edit_renders_created_idx")
        .on("video_edit_renders")
        .columns(["created_at"])
        .execute();
    },
    async down(db: AnyKysely): Promise<void> {
      await db.schema.dropTable("video_edit_renders").execute();
      await db.schema.dropTable("video_edit_projects").execute();
    },
  };
}
