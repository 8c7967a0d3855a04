import type { Kysely } from "kysely";
import type { Db } from "../../db/database.js";
import type { Database } from "../../db/schema.js";

export interface PropertyRule {
  property: string;
  visible: boolean;
  editable: boolean;
}

/** The property_access table: per role, which story properties are visible and editable. */
export class PropertyAccessRepository {
  constructor(
    private readonly db: Db,
    private readonly executor: Kysely<Database> = db.kysely,
  ) {}

  with(executor: Kysely<Database>): PropertyAccessRepository {
    return new PropertyAccessRepository(this.db, executor);
  }

  async rulesOf(roleId: string): Promise<PropertyRule[]> {
    const rows = await this.executor
      .selectFrom("property_access")
      .select(["property", "visible", "editable"])
      .where("role_id", "=", roleId)
      .orderBy("property")
      .execute();
    return rows.map((row) => ({
      property: row.property,
      visible: this.db.adapter.readBoolean(row.visible),
      editable: this.db.adapter.readBoolean(row.editable),
    }));
  }

  /** Every property some role may not see. */
  async hiddenAnywhere(): Promise<string[]> {
    const rows = await this.executor
      .selectFrom("property_access")
      .select("property")
      .distinct()
      .where("visible", "=", false)
      .orderBy("property")
      .execute();
    return rows.map((row) => row.property);
  }

  /** Replaces the role's rules; a rule that is visible and editable is the default and is not kept. */
  async replace(roleId: string, rules: PropertyRule[], now: string): Promise<void> {
    await this.executor.deleteFrom("property_access").where("role_id", "=", roleId).execute();
    const kept = rules.filter((rule) => !(rule.visible && rule.editable));
    if (kept.length === 0) return;
    await this.executor
      .insertInto("property_access")
      .values(
        kept.map((rule) => ({
          role_id: roleId,
          property: rule.property,
          visible: rule.visible,
          editable: rule.editable && rule.visible,
          updated_at: now,
        })),
      )
      .execute();
  }
}
