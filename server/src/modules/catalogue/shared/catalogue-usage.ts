import type { Kysely } from "kysely";
import type { Database } from "../../../db/schema.js";

/** Who merges an entry: the story actions of the stories the merge changes name them. */
export interface MergedBy {
  id: string;
  username: string;
  ip: string | null;
}

/** The catalogue entries stories refer to. */
export type UsageKind = "tag" | "keyword" | "theme" | "source" | "author" | "category";

/**
 * How many stories use a catalogue entry. The catalogue takes it instead of
 * reading the stories table, which another module owns: the composition root
 * passes the stories module's implementation. Stories may refer to an entry
 * by id or by name, so both are given.
 */
export interface CatalogueUsage {
  count(kind: UsageKind, entry: { id: string; name: string }): Promise<number>;
  /**
   * Makes every story that uses `from` use `into` instead (a story that has
   * both keeps one), keeping the search index in step and recording one story
   * action of `by` per changed story, through `executor` (the catalogue's
   * merge transaction). Answers how many stories changed. Absent: merging is
   * not offered.
   */
  repoint?(
    kind: UsageKind,
    from: { id: string; name: string },
    into: { id: string; name: string },
    executor: Kysely<Database>,
    by: MergedBy,
  ): Promise<number>;
}

/** Nothing is in use: for tests of the catalogue alone (the app counts stories, StoryCatalogueUsage). */
export const noCatalogueUsage: CatalogueUsage = {
  count: async () => 0,
};
