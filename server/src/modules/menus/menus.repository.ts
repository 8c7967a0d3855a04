import { sql } from "kysely";
import type { Db } from "../../db/database.js";
import type { MenuRow } from "../../db/schema.js";
import type { MenuArea } from "./menu-seed.js";

export interface MenuRecord extends Omit<MenuRow, "hidden"> {
  hidden: boolean;
}

export class MenusRepository {
  constructor(private readonly db: Db) {}

  async listByArea(area: MenuArea): Promise<MenuRecord[]> {
    const rows = await this.db.kysely
      .selectFrom("menus")
      .selectAll()
      .where("area", "=", area)
      .orderBy("sort_order")
      .orderBy("key")
      .execute();
    return rows.map((row) => ({ ...row, hidden: this.db.adapter.readBoolean(row.hidden) }));
  }

  /** Every menu key with its area: the user area first, each in menu order. */
  async keys(): Promise<{ key: string; area: MenuArea }[]> {
    return this.db.kysely
      .selectFrom("menus")
      .select(["area", "key"])
      .orderBy(sql`case when area = 'user' then 0 else 1 end`)
      .orderBy("sort_order")
      .orderBy("key")
      .execute();
  }
}
