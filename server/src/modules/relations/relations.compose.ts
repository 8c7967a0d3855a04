import type { Db } from "../../db/database.js";
import { RelationsRepository } from "./relations.repository.js";
import { type RelationsDependencies, RelationsService } from "./relations.service.js";

/** Builds the relations service once (called by app.ts). */
export function buildRelations(db: Db, deps: Omit<RelationsDependencies, "relations">): RelationsService {
  return new RelationsService({ ...deps, relations: new RelationsRepository(db.kysely) });
}
