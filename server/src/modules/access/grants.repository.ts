import { randomUUID } from "node:crypto";
import type { Db } from "../../db/database.js";
import { keywordPattern, type PageQuery } from "../../http/envelope.js";
import { ALL_LIBRARIES, type LibraryLevel } from "../auth/permissions.js";

export interface GrantRecord {
  id: string;
  libraryId: string;
  roleId: string | null;
  roleName: string | null;
  userId: string | null;
  username: string | null;
  level: LibraryLevel;
  createdAt: string;
}

/** A grant as its holder sees it: the library (or `*`) and the level. */
export interface HeldGrant {
  libraryId: string;
  level: LibraryLevel;
}

export interface NewGrant {
  libraryId: string;
  roleId: string | null;
  userId: string | null;
  level: LibraryLevel;
}

export class GrantsRepository {
  constructor(private readonly db: Db) {}

  #select() {
    return this.db.kysely
      .selectFrom("library_grants")
      .leftJoin("roles", "roles.id", "library_grants.role_id")
      .leftJoin("users", "users.id", "library_grants.user_id")
      .select([
        "library_grants.id",
        "library_grants.library_id as libraryId",
        "library_grants.role_id as roleId",
        "roles.name as roleName",
        "library_grants.user_id as userId",
        "users.username",
        "library_grants.level",
        "library_grants.created_at as createdAt",
      ]);
  }

  async list(query: PageQuery & { libraryId?: string }): Promise<{ grants: GrantRecord[]; total: number }> {
    let base = this.db.kysely
      .selectFrom("library_grants")
      .leftJoin("roles", "roles.id", "library_grants.role_id")
      .leftJoin("users", "users.id", "library_grants.user_id");
    if (query.libraryId) base = base.where("library_grants.library_id", "=", query.libraryId);
    if (query.keyword) {
      const pattern = keywordPattern(query.keyword);
      base = base.where((eb) =>
        eb.or([
          eb(eb.fn("lower", ["library_grants.library_id"]), "like", pattern),
          eb(eb.fn("lower", ["roles.name"]), "like", pattern),
          eb(eb.fn("lower", ["users.username"]), "like", pattern),
        ]),
      );
    }
    const { count } = await base.select((eb) => eb.fn.countAll<number>().as("count")).executeTakeFirstOrThrow();
    const ids = await base
      .select("library_grants.id")
      .orderBy("library_grants.library_id")
      .orderBy("library_grants.created_at")
      .orderBy("library_grants.id")
      .limit(query.size)
      .offset(query.page * query.size)
      .execute();
    if (ids.length === 0) return { grants: [], total: Number(count) };
    const rows = await this.#select()
      .where(
        "library_grants.id",
        "in",
        ids.map((row) => row.id),
      )
      .execute();
    const order = new Map(ids.map((row, index) => [row.id, index]));
    rows.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
    return { grants: rows, total: Number(count) };
  }

  async findById(id: string): Promise<GrantRecord | undefined> {
    return this.#select().where("library_grants.id", "=", id).executeTakeFirst();
  }

  async insert(grant: NewGrant, now: string): Promise<string> {
    const id = randomUUID();
    await this.db.kysely
      .insertInto("library_grants")
      .values({
        id,
        library_id: grant.libraryId,
        role_id: grant.roleId,
        user_id: grant.userId,
        level: grant.level,
        created_at: now,
      })
      .execute();
    return id;
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.db.kysely.deleteFrom("library_grants").where("id", "=", id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Every grant the user holds directly or through their role, as library (or `*`) and level: one query for a list. */
  async levelsOfHolder(userId: string, roleId: string | null): Promise<HeldGrant[]> {
    return this.db.kysely
      .selectFrom("library_grants")
      .select(["library_id as libraryId", "level"])
      .where((eb) => {
        const holders = [eb("user_id", "=", userId)];
        if (roleId) holders.push(eb("role_id", "=", roleId));
        return eb.or(holders);
      })
      .execute();
  }

  /** The levels granted on a library (or on every library) to the user directly or through their role. */
  async levelsOn(libraryId: string, userId: string, roleId: string | null): Promise<LibraryLevel[]> {
    const rows = await this.db.kysely
      .selectFrom("library_grants")
      .select("level")
      .where("library_id", "in", [libraryId, ALL_LIBRARIES])
      .where((eb) => {
        const holders = [eb("user_id", "=", userId)];
        if (roleId) holders.push(eb("role_id", "=", roleId));
        return eb.or(holders);
      })
      .execute();
    return rows.map((row) => row.level);
  }
}
