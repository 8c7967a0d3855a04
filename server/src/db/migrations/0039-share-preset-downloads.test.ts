import { randomUUID } from "node:crypto";
import { Migrator } from "kysely";
import { expect, it } from "vitest";
import { describeEachDialect, useTestDb } from "../../test/dialects.js";
import { storyRow } from "../../test/stories-app.js";
import { DamsMigrationProvider } from "./index.js";

describeEachDialect("migration 0039-share-preset-downloads", (dialect) => {
  const db = useTestDb(dialect);

  it("keeps shares and their items across the change (SQLite rebuilds both), and allows the preset policy", async () => {
    const { kysely, adapter } = db();
    const provider = new DamsMigrationProvider(adapter);
    const migrator = new Migrator({ db: kysely, provider });
    expect((await migrator.migrateTo("0038-story-revision")).error).toBeUndefined();
    const storyId = randomUUID();
    // The row only, as it stood at 0038: today's search index would look for tables of later migrations.
    await kysely
      .insertInto("stories")
      .values(storyRow({ id: storyId }))
      .execute();
    const shareId = randomUUID();
    const at = new Date().toISOString();
    const boolean = (value: boolean) => (adapter.name === "postgres" ? value : Number(value));
    await kysely
      .insertInto("shares")
      .values({
        id: shareId,
        token_hash: "ab".repeat(32),
        kind: "story",
        title: "before",
        download_policy: "original",
        metadata: "basic",
        keep_location: boolean(false),
        created_at: at,
        updated_at: at,
      } as never)
      .execute();
    await kysely
      .insertInto("share_items")
      .values({ share_id: shareId, position: 0, library_id: "product", story_id: storyId })
      .execute();

    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    const share = await kysely.selectFrom("shares").selectAll().where("id", "=", shareId).executeTakeFirstOrThrow();
    expect(share).toMatchObject({ title: "before", download_policy: "original", download_preset_id: null });
    const presetId = randomUUID();
    await kysely
      .updateTable("shares")
      .set({ download_policy: "preset", download_preset_id: presetId })
      .where("id", "=", shareId)
      .execute();
    await expect(
      kysely
        .updateTable("shares")
        .set({ download_policy: "everything" as never })
        .where("id", "=", shareId)
        .execute(),
    ).rejects.toThrow();
    expect(await kysely.selectFrom("share_items").select("story_id").where("share_id", "=", shareId).execute()).toEqual(
      [{ story_id: storyId }],
    );
    // The items still follow their share.
    await kysely.deleteFrom("shares").where("id", "=", shareId).execute();
    expect(await kysely.selectFrom("share_items").selectAll().where("share_id", "=", shareId).execute()).toEqual([]);

    expect((await migrator.migrateTo("0038-story-revision")).error).toBeUndefined();
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
  });
});
