import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import type { SearchListResult, SearchRepository } from "./search.repository.js";
import type { SearchFilter, SearchPage } from "./search.schema.js";
import { rewriteIndex, SEARCH_FORMAT, storedFormat } from "./search-format.js";
import type { SearchIndex } from "./search-index.js";
import type { Facets } from "./search-window.js";

export type SearchResult = SearchListResult & { facets?: Facets };

/**
 * Searches and lists stories (the filters of `GET /stories`), and keeps the
 * index's format current. The stories module calls it for its lists; every
 * search passes here, with its total (a search that found nothing has `total` 0).
 */
export class SearchService {
  constructor(
    private readonly repository: SearchRepository,
    private readonly kysely: Kysely<Database>,
    private readonly index: SearchIndex,
  ) {}

  /** The page of stories, the total, and the facets when asked for. */
  search(filter: SearchFilter, page: SearchPage, facets: boolean): Promise<SearchResult> {
    return this.repository.search(filter, page, facets);
  }

  /** Empties the index and fills it again from the stories (`dams reindex`); returns how many it indexed. */
  rebuild(batch?: number): Promise<number> {
    return rewriteIndex(this.kysely, this.index, { clear: true, batch });
  }

  /**
   * Rewrites every entry in place when the index holds an older format than
   * this code writes (`dams serve` calls it in the background after an
   * upgrade); returns how many it rewrote, or null when the index was current.
   */
  async refreshIfStale(onBatch?: (done: number) => void): Promise<number | null> {
    if ((await storedFormat(this.kysely)) >= SEARCH_FORMAT) return null;
    return rewriteIndex(this.kysely, this.index, { clear: false, onBatch });
  }
}
