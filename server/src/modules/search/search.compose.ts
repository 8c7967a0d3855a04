import type { Kysely } from "kysely";
import type { Db } from "../../db/database.js";
import type { DialectAdapter } from "../../db/dialect/index.js";
import type { Database } from "../../db/schema.js";
import { SearchRepository } from "./search.repository.js";
import { SEARCH_WINDOW } from "./search.schema.js";
import { SearchService } from "./search.service.js";
import type { SearchIndex } from "./search-index.js";
import { PostgresSearchIndex } from "./search-index-postgres.js";
import { SqliteSearchIndex } from "./search-index-sqlite.js";

export interface SearchModule {
  /** The one index of the process: the stories repository tells it of every write (StoryChangeListener). */
  index: SearchIndex;
  service: SearchService;
}

/** The dialect's index; `kysely` is the pool it reads its statistics through. */
export function createSearchIndex(kysely: Kysely<Database>, adapter: DialectAdapter): SearchIndex {
  return adapter.name === "sqlite" ? new SqliteSearchIndex(kysely, adapter) : new PostgresSearchIndex(kysely, adapter);
}

/** Builds the search index and service once (called by app.ts, the CLI and the benchmarks). */
export function buildSearch(db: Db, window = SEARCH_WINDOW): SearchModule {
  const index = createSearchIndex(db.kysely, db.adapter);
  const repository = new SearchRepository(db.kysely, db.adapter, index, window);
  return { index, service: new SearchService(repository, db.kysely, index) };
}
