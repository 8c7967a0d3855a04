import type { z } from "zod";
import type { AuthenticatedUser, RouteAccess } from "../auth/auth.types.js";

/** A cell as the exporter writes it: text, a number, or empty. */
export type ExportCell = string | number | null;

/**
 * A back-area table the exporter can write (`POST /export/table_0`, docs/exports.md):
 * who may export it, its filters (the same as its list's), its columns and its rows.
 */
export interface ExportTable<Row = unknown, Filter = unknown> {
  /** The `table` of the request body: `log`, … */
  name: string;
  /** Checked like a route's access (the list's own). */
  access: RouteAccess;
  /** The filters the screen applies, as its list endpoint takes them. */
  filter: z.ZodType<Filter>;
  /** Every column the screen can show: key → the cell of a row. The request picks and titles them. */
  columns: Record<string, (row: Row) => ExportCell>;
  /** The rows matching `filter`, in the screen's order, streamed (never all in memory). */
  rows(filter: Filter, user: AuthenticatedUser): AsyncIterable<Row>;
  /** At most this many rows are written (default 1 000 000). */
  maxRows?: number;
}

/** Declares a table with its row and filter types checked against each other. */
export function exportTable<Row, Filter>(table: ExportTable<Row, Filter>): ExportTable<Row, Filter> {
  return table;
}

/**
 * The cells of each row of `source`, whose first result was read already (so a
 * refusal could still be an error answer). When the export stops early — its
 * reader went away, the row limit, a failure — the source is closed too, so a
 * row source holding a cursor or a connection lets it go.
 */
export async function* exportCells<Row>(
  source: AsyncIterator<Row>,
  first: IteratorResult<Row>,
  cells: ReadonlyArray<(row: Row) => ExportCell>,
): AsyncGenerator<ExportCell[]> {
  let next = first;
  try {
    while (!next.done) {
      const row = next.value;
      yield cells.map((cell) => cell(row));
      next = await source.next();
    }
  } finally {
    if (!next.done) await source.return?.();
  }
}

/** The keys of a row whose values are cells as they are. */
type CellKey<Row> = { [Key in keyof Row]: Row[Key] extends ExportCell ? Key : never }[keyof Row] & string;

/** Columns that are fields of the row, written as they are: `{ id: (row) => row.id, … }`, in the order given. */
export function fieldColumns<Row>(keys: readonly CellKey<Row>[]): Record<string, (row: Row) => ExportCell> {
  return Object.fromEntries(keys.map((key) => [key, (row: Row) => row[key] as ExportCell]));
}

/** The rows of a table that is read at once (a few hundred rows at most), as the exporter's stream. */
export function readAtOnce<Row, Filter>(read: (filter: Filter) => Promise<Row[]>) {
  return async function* (filter: Filter): AsyncIterable<Row> {
    yield* await read(filter);
  };
}
