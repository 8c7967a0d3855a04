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
}
