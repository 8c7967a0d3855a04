import type { PageQuery } from "../../../http/envelope.js";
import { NotFound } from "../../../http/errors.js";
import type { EntryRepository } from "../entries/entry.repository.js";
import { EntryService } from "../entries/entry.service.js";
import type { EntryRow } from "../entries/entry-definition.js";
import type { CatalogueUsage } from "../shared/catalogue-usage.js";
import type { KeywordRepository } from "./keyword.repository.js";
import { type HistoryEntryView, type KeywordInput, type KeywordView, keywordDefinition } from "./keyword.schema.js";

/** How many keywords a user's history keeps (the oldest go first). */
export const KEYWORD_HISTORY_LIMIT = 50;

/** Distinct names, regardless of case, in the order given (the first spelling wins). */
export function distinctNames(names: string[]): string[] {
  const seen = new Set<string>();
  const result: string[] = [];
  for (const raw of names) {
    const name = raw.trim();
    const key = name.toLowerCase();
    if (!name || seen.has(key)) continue;
    seen.add(key);
    result.push(name);
  }
  return result;
}

/** Keywords: the generic entry rules, plus use counts (for listByOrder) and each user's history. */
export class KeywordService extends EntryService<KeywordView, KeywordInput> {
  readonly #keywords: KeywordRepository;

  constructor(entries: EntryRepository, keywords: KeywordRepository, usage: CatalogueUsage, clock?: () => Date) {
    super(keywordDefinition, entries, usage, clock);
    this.#keywords = keywords;
  }

  /** A merged keyword's uses count for the keyword it went into. */
  protected override async mergeExtras(repository: EntryRepository, from: EntryRow, into: EntryRow): Promise<void> {
    const uses = Number(from.use_count ?? 0);
    if (uses > 0) await repository.increment(into.id, "use_count", uses, this.clock().toISOString());
  }

  /** The most used keywords first (/keyword/listByOrder). */
  async mostUsed(keyword: string | undefined, limit: number): Promise<KeywordView[]> {
    return (await this.repository.top("use_count", keyword, limit)).map(this.view);
  }

  /**
   * Counts one use of each keyword, creating the ones the catalogue lacks.
   * The stories module calls this when keywords are applied to a story.
   */
  async recordUse(names: string[]): Promise<void> {
    const distinct = distinctNames(names);
    if (distinct.length > 0) await this.#keywords.countUse(distinct, this.clock().toISOString());
  }

  async history(userId: string, query: PageQuery): Promise<{ content: HistoryEntryView[]; total: number }> {
    const { rows, total } = await this.#keywords.history(userId, query);
    return { content: rows.map((row) => ({ id: row.id, keyword: row.keyword, usedAt: row.used_at })), total };
  }

  /** Puts the keywords at the top of the user's history (the first given is the most recent). */
  async recordHistory(userId: string, keywords: string[]): Promise<void> {
    const distinct = distinctNames(keywords);
    if (distinct.length > 0) await this.#keywords.recordHistory(userId, distinct, this.clock(), KEYWORD_HISTORY_LIMIT);
  }

  async forgetHistory(userId: string, id?: string): Promise<void> {
    const deleted = await this.#keywords.deleteHistory(userId, id);
    if (id && deleted === 0) throw new NotFound(`no keyword history entry has the id ${id}`);
  }
}
