import { randomUUID } from "node:crypto";
import { type Kysely, sql } from "kysely";
import type { DialectAdapter } from "../dialect/index.js";
import type { AnyKysely } from "./index.js";

/**
 * The catalogue: themes, tags, keywords (with a use count) and each user's
 * keyword history, sources, authors, categories, code lists with their
 * options, and the custom story properties the upload forms are built from.
 * Names a user would expect to be unique are unique regardless of case
 * (an index on lower(name)); the service says so first, with a message.
 */
export function catalogue(adapter: DialectAdapter) {
  const types = adapter.columnTypes;
  return {
    async up(db: AnyKysely): Promise<void> {
      const named = (table: string) =>
        db.schema
          .createTable(table)
          .addColumn("id", types.uuid, (column) => column.primaryKey())
          .addColumn("name", "text", (column) => column.notNull());

      await named("themes")
        .addColumn("description", "text")
        .addColumn("sort_order", "integer", (column) => column.notNull().defaultTo(0))
        .addColumn("created_at", types.timestamp, (column) => column.notNull())
        .addColumn("updated_at", types.timestamp, (column) => column.notNull())
        .execute();
      await uniqueLowerName(db, "themes");

      await named("tags")
        .addColumn("color", "text")
        .addColumn("description", "text")
        .addColumn("created_at", types.timestamp, (column) => column.notNull())
        .addColumn("updated_at", types.timestamp, (column) => column.notNull())
        .execute();
      await uniqueLowerName(db, "tags");

      await named("keywords")
        .addColumn("use_count", "integer", (column) => column.notNull().defaultTo(0))
        .addColumn("created_at", types.timestamp, (column) => column.notNull())
        .addColumn("updated_at", types.timestamp, (column) => column.notNull())
        .execute();
      await uniqueLowerName(db, "keywords");
      await db.schema.createIndex("keywords_use_count_idx").on("keywords").column("use_count").execute();

      await db.schema
        .createTable("keyword_history")
        .addColumn("id", types.uuid, (column) => column.primaryKey())
        .addColumn("user_id", types.uuid, (column) => column.notNull().references("users.id").onDelete("cascade"))
        .addColumn("keyword", "text", (column) => column.notNull())
        .addColumn("used_at", types.timestamp, (column) => column.notNull())
        .execute();
      await db.schema
        .createIndex("keyword_history_user_keyword_unique")
        .on("keyword_history")
        .unique()
        .expression(sql`user_id, lower(keyword)`)
        .execute();
      await db.schema
        .createIndex("keyword_history_user_used_idx")
        .on("keyword_history")
        .columns(["user_id", "used_at"])
        .execute();

      await named("sources")
        .addColumn("description", "text")
        .addColumn("sort_order", "integer", (column) => column.notNull().defaultTo(0))
        .addColumn("created_at", types.timestamp, (column) => column.notNull())
        .addColumn("updated_at", types.timestamp, (column) => column.notNull())
        .execute();
      await uniqueLowerName(db, "sources");

      // Two reporters may share a name; not in the same department.
      await named("authors")
        .addColumn("pen_name", "text")
        .addColumn("department", "text")
        .addColumn("phone", "text")
        .addColumn("email", "text")
        .addColumn("description", "text")
        .addColumn("created_at", types.timestamp, (column) => column.notNull())
        .addColumn("updated_at", types.timestamp, (column) => column.notNull())
        .execute();
      await db.schema
        .createIndex("authors_name_department_unique")
        .on("authors")
        .unique()
        .expression(sql`lower(name), coalesce(lower(department), '')`)
        .execute();

      // Names are unique among siblings; the service checks it (the root has a null parent).
      await named("categories")
        .addColumn("parent_id", types.uuid, (column) => column.references("categories.id").onDelete("restrict"))
        .addColumn("description", "text")
        .addColumn("sort_order", "integer", (column) => column.notNull().defaultTo(0))
        .addColumn("created_at", types.timestamp, (column) => column.notNull())
        .addColumn("updated_at", types.timestamp, (column) => column.notNull())
        .execute();
      await db.schema.createIndex("categories_parent_idx").on("categories").column("parent_id").execute();

      await named("codelists")
        .addColumn("code", "text", (column) => column.notNull())
        .addColumn("description", "text")
        .addColumn("created_at", types.timestamp, (column) => column.notNull())
        .addColumn("updated_at", types.timestamp, (column) => column.notNull())
        .execute();
      await uniqueLowerName(db, "codelists");
      await db.schema
        .createIndex("codelists_code_unique")
        .on("codelists")
        .unique()
        .expression(sql`lower(code)`)
        .execute();

      await db.schema
        .createTable("codelist_options")
        .addColumn("id", types.uuid, (column) => column.primaryKey())
        .addColumn("codelist_id", types.uuid, (column) =>
          column.notNull().references("codelists.id").onDelete("cascade"),
        )
        .addColumn("value", "text", (column) => column.notNull())
        .addColumn("label", "text", (column) => column.notNull())
        .addColumn("sort_order", "integer", (column) => column.notNull().defaultTo(0))
        .addColumn("created_at", types.timestamp, (column) => column.notNull())
        .addColumn("updated_at", types.timestamp, (column) => column.notNull())
        .addUniqueConstraint("codelist_options_value_unique", ["codelist_id", "value"])
        .execute();

      await db.schema
        .createTable("story_properties")
        .addColumn("id", types.uuid, (column) => column.primaryKey())
        .addColumn("story_type", "text", (column) => column.notNull())
        // Null: the property applies in every library.
        .addColumn("library_id", "text")
        .addColumn("name", "text", (column) => column.notNull())
        .addColumn("label", "text", (column) => column.notNull())
        .addColumn("kind", "text", (column) => column.notNull())
        .addColumn("required", types.boolean, (column) => column.notNull())
        .addColumn("default_value", "text")
        .addColumn("codelist_id", types.uuid, (column) => column.references("codelists.id").onDelete("restrict"))
        .addColumn("sort_order", "integer", (column) => column.notNull().defaultTo(0))
        .addColumn("isquick", types.boolean, (column) => column.notNull())
        .addColumn("created_at", types.timestamp, (column) => column.notNull())
        .addColumn("updated_at", types.timestamp, (column) => column.notNull())
        .execute();
      await db.schema
        .createIndex("story_properties_name_unique")
        .on("story_properties")
        .unique()
        .expression(sql`story_type, coalesce(library_id, ''), lower(name)`)
        .execute();

      await seed(db);
    },
    async down(db: Kysely<unknown>): Promise<void> {
      for (const table of [
        "story_properties",
        "codelist_options",
        "codelists",
        "categories",
        "authors",
        "sources",
        "keyword_history",
        "keywords",
        "tags",
        "themes",
      ]) {
        await db.schema.dropTable(table).execute();
      }
    },
  };
}

async function uniqueLowerName(db: AnyKysely, table: string): Promise<void> {
  await db.schema.createIndex(`${table}_name_unique`).on(table).unique().expression(sql`lower(name)`).execute();
}

// Frozen seed data: a newsroom's first code lists, sources, categories and the
// custom properties of the three upload forms.
const seedCodelists = [
  {
    code: "storyLevel",
    name: "稿件级别",
    description: "Story priority / 稿件的紧急与重要程度",
    options: [
      ["normal", "普通 Normal"],
      ["important", "重要 Important"],
      ["urgent", "加急 Urgent"],
      ["flash", "特急 Flash"],
    ],
  },
  {
    code: "copyright",
    name: "版权类型",
    description: "Rights / 版权归属",
    options: [
      ["owned", "自有版权 Owned"],
      ["licensed", "授权使用 Licensed"],
      ["exclusive", "独家 Exclusive"],
      ["editorialOnly", "仅限新闻使用 Editorial use only"],
    ],
  },
] as const;

const seedSources = ["本社 Staff", "新华社 Xinhua", "Reuters", "AP"];
const seedCategories = ["新闻 News", "体育 Sports", "财经 Business", "文化 Culture"];

interface SeedProperty {
  name: string;
  label: string;
  kind: string;
  required: boolean;
  defaultValue: string | null;
  codelist: string | null;
  isquick: boolean;
}

const quickLevel: SeedProperty = {
  name: "storyLevel",
  label: "稿件级别",
  kind: "select",
  required: true,
  defaultValue: "normal",
  codelist: "storyLevel",
  isquick: true,
};
const rights: SeedProperty = {
  name: "copyright",
  label: "版权类型",
  kind: "select",
  required: false,
  defaultValue: "owned",
  codelist: "copyright",
  isquick: false,
};
const seedProperties: Record<"photo" | "video" | "audio", SeedProperty[]> = {
  photo: [
    quickLevel,
    {
      name: "location",
      label: "拍摄地点",
      kind: "text",
      required: false,
      defaultValue: null,
      codelist: null,
      isquick: true,
    },
    {
      name: "shotDate",
      label: "拍摄日期",
      kind: "date",
      required: false,
      defaultValue: null,
      codelist: null,
      isquick: false,
    },
    rights,
    {
      name: "exclusive",
      label: "独家",
      kind: "switch",
      required: false,
      defaultValue: "false",
      codelist: null,
      isquick: false,
    },
  ],
  video: [
    quickLevel,
    {
      name: "location",
      label: "拍摄地点",
      kind: "text",
      required: false,
      defaultValue: null,
      codelist: null,
      isquick: true,
    },
    {
      name: "shotDate",
      label: "拍摄日期",
      kind: "date",
      required: false,
      defaultValue: null,
      codelist: null,
      isquick: false,
    },
    {
      name: "shotList",
      label: "镜头说明",
      kind: "textarea",
      required: false,
      defaultValue: null,
      codelist: null,
      isquick: false,
    },
    rights,
  ],
  audio: [
    quickLevel,
    {
      name: "programme",
      label: "栏目",
      kind: "text",
      required: false,
      defaultValue: null,
      codelist: null,
      isquick: true,
    },
    {
      name: "recordDate",
      label: "录制日期",
      kind: "date",
      required: false,
      defaultValue: null,
      codelist: null,
      isquick: false,
    },
    {
      name: "transcript",
      label: "文字稿",
      kind: "textarea",
      required: false,
      defaultValue: null,
      codelist: null,
      isquick: false,
    },
    rights,
  ],
};

async function seed(db: AnyKysely): Promise<void> {
  const now = new Date().toISOString();
  const stamps = { created_at: now, updated_at: now };
  const codelistIds = new Map<string, string>();
  for (const list of seedCodelists) {
    const id = randomUUID();
    codelistIds.set(list.code, id);
    await db
      .insertInto("codelists")
      .values({ id, code: list.code, name: list.name, description: list.description, ...stamps })
      .execute();
    await db
      .insertInto("codelist_options")
      .values(
        list.options.map(([value, label], index) => ({
          id: randomUUID(),
          codelist_id: id,
          value,
          label,
          sort_order: index,
          ...stamps,
        })),
      )
      .execute();
  }
  await db
    .insertInto("sources")
    .values(
      seedSources.map((name, index) => ({ id: randomUUID(), name, description: null, sort_order: index, ...stamps })),
    )
    .execute();
  await db
    .insertInto("categories")
    .values(
      seedCategories.map((name, index) => ({
        id: randomUUID(),
        name,
        parent_id: null,
        description: null,
        sort_order: index,
        ...stamps,
      })),
    )
    .execute();
  for (const [storyType, properties] of Object.entries(seedProperties)) {
    await db
      .insertInto("story_properties")
      .values(
        properties.map((property, index) => ({
          id: randomUUID(),
          story_type: storyType,
          library_id: null,
          name: property.name,
          label: property.label,
          kind: property.kind,
          required: property.required,
          default_value: property.defaultValue,
          codelist_id: property.codelist ? (codelistIds.get(property.codelist) ?? null) : null,
          sort_order: index,
          isquick: property.isquick,
          ...stamps,
        })),
      )
      .execute();
  }
}
