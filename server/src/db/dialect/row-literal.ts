/** A column's parser: its text as the driver reads it (pg's type parsers). */
export type ValueParser = (value: string) => unknown;

/**
 * A row's object made from its values in one object literal, compiled once
 * per list of column names and shared by every statement of that shape (both
 * dialects' drivers, issue 21). The drivers' own rows are stored key by key
 * (pg: into a copy of a template; better-sqlite3: from C++), and in a server
 * that runs hundreds of statement shapes those stores go through generic,
 * slow paths; a literal makes every row of a shape at once, with one hidden
 * class. The keys' order and a repeated name (the last value wins) are the
 * drivers'. Names are written as JSON strings, so no name is code; a list
 * with `__proto__` (which a literal would take as the prototype) has none.
 */
type Maker = (parsers: readonly ValueParser[]) => (values: readonly unknown[]) => unknown;

const makers = new Map<string, Maker>();
/** Statement shapes kept (a server has a few hundred; a runaway of dynamic ones is cut). */
const MAX_SHAPES = 2000;

function compiled(names: readonly string[], parsed: boolean): Maker {
  const key = `${parsed ? "p" : "v"}\u0000${names.join("\u0000")}`;
  let make = makers.get(key);
  if (!make) {
    const value = (index: number) =>
      parsed ? `v[${index}] === null ? null : p[${index}](v[${index}])` : `v[${index}]`;
    const fields = names.map((name, index) => `${JSON.stringify(name)}: ${value(index)}`);
    make = new Function("p", `return (v) => ({${fields.join(", ")}});`) as Maker;
    if (makers.size >= MAX_SHAPES) makers.clear();
    makers.set(key, make);
  }
  return make;
}

/** The maker of rows from arrays of values, as they are; undefined for a `__proto__` column. */
export function rowLiteral(
  names: readonly string[],
): ((values: readonly unknown[]) => Record<string, unknown>) | undefined {
  if (names.includes("__proto__")) return undefined;
  return compiled(names, false)([]) as (values: readonly unknown[]) => Record<string, unknown>;
}

/** The maker of rows from text values, each through its column's parser (null stays null); as rowLiteral. */
export function parsedRowLiteral(
  names: readonly string[],
  parsers: readonly ValueParser[],
): ((values: readonly (string | null)[]) => Record<string, unknown>) | undefined {
  if (names.includes("__proto__")) return undefined;
  return compiled(names, true)(parsers) as (values: readonly (string | null)[]) => Record<string, unknown>;
}
