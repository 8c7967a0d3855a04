import type { UsageKind } from "../shared/catalogue-usage.js";

/** The catalogue tables that share the simple shape: an id, a name, a few text columns and time stamps. */
export type EntryTable = "themes" | "tags" | "keywords" | "sources" | "authors";

export type EntryRow = Record<string, unknown> & { id: string; name: string; created_at: string; updated_at: string };

/**
 * What differs between the simple catalogue entries (themes, tags, keywords,
 * sources, authors): their table, their columns, how a row becomes what the
 * API returns, and which columns make two entries the same.
 */
export interface EntryDefinition<View extends { id: string; name: string }, Input extends { name: string }> {
  table: EntryTable;
  /** The word messages use: "tag". */
  noun: string;
  usageKind: UsageKind;
  /** The columns a list's keyword matches (any case). */
  searchColumns: readonly string[];
  /** The order of lists; the id breaks ties. */
  orderBy: readonly { column: string; direction: "asc" | "desc" }[];
  /** Columns whose values, compared regardless of case (null as empty), identify a duplicate. */
  uniqueColumns: readonly string[];
  duplicateMessage(input: Input): string;
  toView(row: EntryRow): View;
  /** The editable columns for an input (never id, name stamps or counters). */
  toColumns(input: Input): Record<string, unknown>;
}
