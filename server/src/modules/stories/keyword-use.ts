/**
 * Counts keywords as they are applied to stories, so the catalogue can list
 * the most used first (`/keyword/listByOrder`). The catalogue's
 * `KeywordService` is the one the server runs with; it creates the keywords
 * it lacks.
 */
export interface KeywordUse {
  /** One use of each distinct name (any case). */
  recordUse(names: string[]): Promise<void>;
}

/**
 * Counts the keywords applied to stories: one list per story, each holding
 * the keywords that story gained. Runs after the story's transaction (the
 * catalogue writes in a transaction of its own, and SQLite has one
 * connection); a failure is reported, not thrown, because the story's change
 * is already committed and a use count is not worth an error for it.
 */
export class KeywordUseCounter {
  constructor(
    private readonly use: KeywordUse,
    /** A count that could not be written (the story's change stands): for the log. */
    private readonly onError?: (names: string[], error: unknown) => void,
  ) {}

  async count(perStory: string[][]): Promise<void> {
    for (const names of perStory) {
      if (names.length === 0) continue;
      try {
        await this.use.recordUse(names);
      } catch (error) {
        this.onError?.(names, error);
      }
    }
  }
}

/** The keywords of `next` that `current` lacks (compared in any case, as the catalogue does). */
export function addedKeywords(current: readonly string[], next: readonly string[] | undefined): string[] {
  if (!next) return [];
  const had = new Set(current.map((name) => name.trim().toLowerCase()));
  return next.filter((name) => name.trim() !== "" && !had.has(name.trim().toLowerCase()));
}
