import { randomUUID } from "node:crypto";
import { type Kysely, sql } from "kysely";
import type { DialectAdapter } from "../dialect/index.js";
import type { AnyKysely } from "./index.js";

// Frozen copies: a migration must not change when today's code does.
const ALL_ACTIONS = ["add", "delete", "edit", "query", "get", "update", "enable", "disable", "import", "export"];
const READ_ACTIONS = ["query", "get"];
const CONTRIBUTOR_ACTIONS = ["add", "edit", "query", "get", "update"];
const CONTRIBUTOR_KEYS = /^(search|upload(\..+)?|story|story\.list|halfproduct|halfproduct\.list)$/;
/** Viewers browse; the upload pages that only add content are not theirs. */
const VIEWER_EXCLUDED_KEYS = new Set(["upload.image", "upload.video", "upload.audio"]);
const MONITOR_KEYS = /^(manage\.monitor(\..+)?|backend\.monitor\.storage)$/;

interface MenuKey {
  area: "user" | "admin";
  key: string;
}

interface SeedRole {
  id: string;
  name: string;
  describe: string;
  permissions: (menu: MenuKey) => string[] | null;
}

const seedRoles: SeedRole[] = [
  {
    id: "administrator",
    name: "Administrator",
    describe: "every permission of the front and back areas",
    permissions: () => ALL_ACTIONS,
  },
  {
    id: "editor",
    name: "Editor",
    describe: "everything in the front area; reads the back area's monitors",
    permissions: (menu) => (menu.area === "user" ? ALL_ACTIONS : MONITOR_KEYS.test(menu.key) ? READ_ACTIONS : null),
  },
  {
    id: "contributor",
    name: "Contributor",
    describe: "searches, uploads and edits stories; deletes nothing",
    permissions: (menu) => (menu.area === "user" && CONTRIBUTOR_KEYS.test(menu.key) ? CONTRIBUTOR_ACTIONS : null),
  },
  {
    id: "viewer",
    name: "Viewer",
    describe: "searches and looks at stories in the front area",
    permissions: (menu) => (menu.area === "user" && !VIEWER_EXCLUDED_KEYS.has(menu.key) ? READ_ACTIONS : null),
  },
];

/** Library grants of the built-in roles; `*` is every library. Libraries arrive in a later issue. */
const seedGrants: { roleId: string; libraryId: string; level: "read" | "write" | "manage" }[] = [
  { roleId: "administrator", libraryId: "*", level: "manage" },
  { roleId: "editor", libraryId: "*", level: "write" },
  { roleId: "contributor", libraryId: "product", level: "write" },
  { roleId: "contributor", libraryId: "material", level: "write" },
  { roleId: "viewer", libraryId: "*", level: "read" },
];

/** Roles, role permissions, users' role, library grants and personal API tokens. */
export function accessControl(adapter: DialectAdapter) {
  const types = adapter.columnTypes;
  return {
    async up(db: AnyKysely): Promise<void> {
      // Role ids are text, not uuid: the built-in roles have readable ids.
      await db.schema
        .createTable("roles")
        .addColumn("id", "text", (column) => column.primaryKey())
        .addColumn("name", "text", (column) => column.notNull())
        .addColumn("describe", "text", (column) => column.notNull())
        .addColumn("status", "integer", (column) => column.notNull().defaultTo(1))
        .addColumn("creator_id", types.uuid, (column) => column.references("users.id").onDelete("set null"))
        .addColumn("create_time", types.timestamp, (column) => column.notNull())
        .addColumn("deleted", types.boolean, (column) => column.notNull())
        .execute();

      await db.schema
        .createTable("role_permissions")
        .addColumn("role_id", "text", (column) => column.notNull().references("roles.id").onDelete("cascade"))
        .addColumn("permission_id", "text", (column) => column.notNull())
        .addColumn("permission_name", "text", (column) => column.notNull())
        .addColumn("actions", types.json, (column) => column.notNull())
        .addColumn("data_access", "text")
        .addPrimaryKeyConstraint("role_permissions_pk", ["role_id", "permission_id"])
        .execute();

      await db.schema
        .alterTable("users")
        .addColumn("role_id", "text", (column) => column.references("roles.id"))
        .execute();
      await db.schema.createIndex("users_role_idx").on("users").column("role_id").execute();

      await db.schema
        .createTable("library_grants")
        .addColumn("id", types.uuid, (column) => column.primaryKey())
        .addColumn("library_id", "text", (column) => column.notNull())
        .addColumn("role_id", "text", (column) => column.references("roles.id").onDelete("cascade"))
        .addColumn("user_id", types.uuid, (column) => column.references("users.id").onDelete("cascade"))
        .addColumn("level", "text", (column) => column.notNull().check(sqlLevel()))
        .addColumn("created_at", types.timestamp, (column) => column.notNull())
        .addCheckConstraint("library_grants_one_holder", sqlOneHolder())
        .execute();
      await db.schema.createIndex("library_grants_library_idx").on("library_grants").column("library_id").execute();

      await db.schema
        .createTable("api_tokens")
        .addColumn("id", types.uuid, (column) => column.primaryKey())
        .addColumn("user_id", types.uuid, (column) => column.notNull().references("users.id").onDelete("cascade"))
        .addColumn("name", "text", (column) => column.notNull())
        .addColumn("token_hash", "text", (column) => column.notNull().unique())
        .addColumn("prefix", "text", (column) => column.notNull())
        .addColumn("created_at", types.timestamp, (column) => column.notNull())
        .addColumn("last_used_at", types.timestamp)
        .addColumn("expires_at", types.timestamp)
        .addColumn("revoked_at", types.timestamp)
        .execute();
      await db.schema.createIndex("api_tokens_user_idx").on("api_tokens").column("user_id").execute();

      await seed(db, adapter);
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable("api_tokens").execute();
      await db.schema.dropTable("library_grants").execute();
      await db.schema.dropIndex("users_role_idx").execute();
      await db.schema.alterTable("users").dropColumn("role_id").execute();
      await db.schema.dropTable("role_permissions").execute();
      await db.schema.dropTable("roles").execute();
    },
  };
}

function sqlLevel() {
  return sql`level in ('read', 'write', 'manage')`;
}

/** A grant belongs to a role or to a user, never both, never neither. */
function sqlOneHolder() {
  return sql`(role_id is null) <> (user_id is null)`;
}

async function seed(db: AnyKysely, adapter: DialectAdapter): Promise<void> {
  const now = new Date().toISOString();
  const menus: MenuKey[] = await db.selectFrom("menus").select(["area", "key"]).orderBy("sort_order").execute();
  for (const role of seedRoles) {
    await db
      .insertInto("roles")
      .values({
        id: role.id,
        name: role.name,
        describe: role.describe,
        status: 1,
        creator_id: null,
        create_time: now,
        deleted: false,
      })
      .execute();
    const permissions = menus.flatMap((menu) => {
      const actions = role.permissions(menu);
      return actions
        ? [
            {
              role_id: role.id,
              permission_id: menu.key,
              permission_name: `menu.${menu.key}`,
              actions: adapter.writeJson(actions),
              data_access: null,
            },
          ]
        : [];
    });
    if (permissions.length > 0) await db.insertInto("role_permissions").values(permissions).execute();
  }
  await db
    .insertInto("library_grants")
    .values(
      seedGrants.map((grant) => ({
        id: randomUUID(),
        library_id: grant.libraryId,
        role_id: grant.roleId,
        user_id: null,
        level: grant.level,
        created_at: now,
      })),
    )
    .execute();
  await db.updateTable("users").set({ role_id: "administrator" }).where("admin", "=", true).execute();
  await db.updateTable("users").set({ role_id: "contributor" }).where("role_id", "is", null).execute();
}
