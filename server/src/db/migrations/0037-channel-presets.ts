import type { DialectAdapter } from "../dialect/index.js";
import type { AnyKysely } from "./index.js";

/**
 * A channel names a download preset per story type (photo, video, audio) instead of one preset id
 * (modules/channels): `presets` is `{ "photo"?: id, "video"?: id, "audio"?: id }`. The old column only
 * ever held ids kept as given before the presets module existed; a value is carried over as the photo preset.
 */
export function channelPresets(adapter: DialectAdapter) {
  const types = adapter.columnTypes;
  return {
    async up(db: AnyKysely): Promise<void> {
      await db.schema
        .alterTable("channels")
        .addColumn("presets", types.json, (column) => column.notNull().defaultTo("{}"))
        .execute();
      const rows = await db
        .selectFrom("channels")
        .select(["id", "preset_id"])
        .where("preset_id", "is not", null)
        .execute();
      for (const row of rows as { id: string; preset_id: string }[]) {
        await db
          .updateTable("channels")
          .set({ presets: adapter.writeJson({ photo: row.preset_id }) })
          .where("id", "=", row.id)
          .execute();
      }
      await db.schema.alterTable("channels").dropColumn("preset_id").execute();
    },
    async down(db: AnyKysely): Promise<void> {
      await db.schema.alterTable("channels").addColumn("preset_id", "text").execute();
      await db.schema.alterTable("channels").dropColumn("presets").execute();
    },
  };
}
