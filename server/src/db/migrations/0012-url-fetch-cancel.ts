import { sql } from "kysely";
import type { DialectAdapter } from "../dialect/index.js";
import type { AnyKysely } from "./index.js";

const COLUMNS =
  "id, user_id, url, library_id, folder_id, type, suffix, state, bytes_received, total_bytes, speed, error, story_id, created_at, updated_at";

/**
 * The download centre, issue 6 (docs/url-ingest.md): a fetch may be
 * `cancelled` (the row keeps its job's id to cancel it); its refusal keeps a stable code and values beside the English
 * reason (the web app translates them); an HLS stream counts its segments.
 * The state's CHECK changes, which SQLite cannot alter: the table is built
 * anew and the rows copied, on both dialects alike.
 */
export function urlFetchCancel(adapter: DialectAdapter) {
  const types = adapter.columnTypes;
  const create = (db: AnyKysely, name: string, states: string[], extra: boolean) => {
    let table = db.schema
      .createTable(name)
      .addColumn("id", types.uuid, (column) => column.primaryKey())
      .addColumn("user_id", types.uuid, (column) => column.notNull().references("users.id").onDelete("cascade"))
      .addColumn("url", "text", (column) => column.notNull())
      .addColumn("library_id", "text", (column) => column.notNull())
      .addColumn("folder_id", types.uuid)
      .addColumn("type", "text")
      .addColumn("suffix", "text")
      .addColumn("state", "text", (column) =>
        column.notNull().check(sql`state in (${sql.join(states.map((state) => sql.lit(state)))})`),
      )
      .addColumn("bytes_received", "bigint", (column) => column.notNull().defaultTo(0))
      .addColumn("total_bytes", "bigint")
      .addColumn("speed", "bigint", (column) => column.notNull().defaultTo(0))
      .addColumn("error", "text")
      .addColumn("story_id", types.uuid)
      .addColumn("created_at", types.timestamp, (column) => column.notNull())
      .addColumn("updated_at", types.timestamp, (column) => column.notNull());
    if (extra)
      table = table
        .addColumn("job_id", types.uuid)
        .addColumn("error_code", "text")
        .addColumn("error_params", "text")
        .addColumn("segments_done", "integer")
        .addColumn("segments_total", "integer");
    return table.execute();
  };
  const rebuild = async (db: AnyKysely, states: string[], extra: boolean) => {
    await create(db, "url_fetches_next", states, extra);
    const keep = sql.raw(COLUMNS);
    await sql`insert into url_fetches_next (${keep}) select ${keep} from url_fetches where state in (${sql.join(states.map((state) => sql.lit(state)))})`.execute(
      db,
    );
    await db.schema.dropTable("url_fetches").execute();
    await db.schema.alterTable("url_fetches_next").renameTo("url_fetches").execute();
    await db.schema
      .createIndex("url_fetches_user_url_idx")
      .on("url_fetches")
      .columns(["user_id", "url", "created_at"])
      .execute();
    await db.schema
      .createIndex("url_fetches_user_created_idx")
      .on("url_fetches")
      .columns(["user_id", "created_at"])
      .execute();
  };
  return {
    async up(db: AnyKysely): Promise<void> {
      await rebuild(db, ["queued", "running", "done", "failed", "cancelled"], true);
    },
    async down(db: AnyKysely): Promise<void> {
      // Cancelled fetches have no place in the older table.
      await rebuild(db, ["queued", "running", "done", "failed"], false);
    },
  };
}
