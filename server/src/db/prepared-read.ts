import { type Compilable, CompiledQuery, type Kysely } from "kysely";
import type { Database } from "./schema.js";

interface Compiled {
  sql: string;
  parameters: readonly unknown[];
  /** Where each argument goes in `parameters`. */
  slots: readonly number[];
}

/**
 * A hot read built and compiled by Kysely once per dialect, then run with
 * new values: GET one story skips building the query tree, compiling it and
 * the dialect's plugins on every call (Kysely's query building was ~7 % of
 * that request's CPU, docs/operations.md). The query is built with
 * placeholder strings for the arguments, which are found again in the
 * compiled parameters and replaced per call; so arguments are strings that
 * no plugin rewrites (no dialect has one today).
 */
export class PreparedRead<Args extends readonly string[], Row> {
  readonly #compiled = new WeakMap<object, Compiled>();

  constructor(
    private readonly arity: Args["length"],
    private readonly build: (kysely: Kysely<Database>, ...args: Args) => Compilable<Row>,
  ) {}

  /** The rows, through `kysely` (the database or a transaction); `dialect` keys the compiled form. */
  async execute(kysely: Kysely<Database>, dialect: object, ...args: Args): Promise<Row[]> {
    const compiled = this.#compiled.get(dialect) ?? this.#compile(kysely, dialect);
    const parameters = [...compiled.parameters];
    for (let index = 0; index < compiled.slots.length; index++) parameters[compiled.slots[index]!] = args[index];
    return (await kysely.executeQuery<Row>(CompiledQuery.raw(compiled.sql, parameters))).rows;
  }

  #compile(kysely: Kysely<Database>, dialect: object): Compiled {
    const placeholders = Array.from({ length: this.arity }, (_, index) => `\u0000prepared-read-${index}`);
    const { sql, parameters } = this.build(kysely, ...(placeholders as unknown as Args)).compile();
    const slots = placeholders.map((placeholder) => {
      const slot = parameters.indexOf(placeholder);
      if (slot < 0 || parameters.lastIndexOf(placeholder) !== slot) {
        throw new Error(`a prepared read uses each argument once, as a parameter: ${sql}`);
      }
      return slot;
    });
    const compiled = { sql, parameters, slots };
    this.#compiled.set(dialect, compiled);
    return compiled;
  }
}

/**
 * A read whose argument is a list of strings (`where id in (…)`), compiled
 * once per dialect and list length (a search's page of 50 stories, their
 * files): the SQL of a list differs only by its count of placeholders. Lists
 * longer than `maxPrepared` are built each time, so the forms kept stay few.
 */
export class PreparedListRead<Row> {
  readonly #byLength = new Map<number, PreparedRead<string[], Row>>();

  constructor(
    private readonly build: (kysely: Kysely<Database>, values: string[]) => Compilable<Row>,
    private readonly maxPrepared = 1000,
  ) {}

  /** The rows for these values (at least one), through `kysely`; `dialect` keys the compiled form. */
  async execute(kysely: Kysely<Database>, dialect: object, values: readonly string[]): Promise<Row[]> {
    if (values.length > this.maxPrepared)
      return (await kysely.executeQuery(this.build(kysely, [...values]).compile())).rows;
    let prepared = this.#byLength.get(values.length);
    if (!prepared) {
      prepared = new PreparedRead<string[], Row>(values.length, (executor, ...placeholders) =>
        this.build(executor, placeholders),
      );
      this.#byLength.set(values.length, prepared);
    }
    return prepared.execute(kysely, dialect, ...values);
  }
}

/** Marks an argument of a ShapedQueries build: no value of ours starts with a NUL. */
const SHAPE_MARK = "\u0000shaped-";

/**
 * Queries whose SQL follows the shape of their arguments (which filters are
 * set, how long each list is) and not their values: built and compiled by
 * Kysely once per shape, then run with new values (a search's window query,
 * ~3–4 % of a selective search's CPU when built each time). The caller names
 * the shape and hands the string values; the build gets a placeholder for each.
 * A shape whose placeholders do not all come back as whole parameters, each once
 * (a value folded into the SQL text, transformed, or only tested), is built every time.
 */
export class ShapedQueries {
  readonly #byShape = new Map<string, Compiled | null>();

  constructor(private readonly maxShapes = 1000) {}

  /** The compiled query of these values; `build` makes it from the values or from their placeholders. */
  compile(
    shape: string,
    values: readonly string[],
    build: (values: readonly string[]) => CompiledQuery,
  ): CompiledQuery {
    let compiled = this.#byShape.get(shape);
    if (compiled === undefined) {
      compiled = this.#prepare(values.length, build);
      if (this.#byShape.size >= this.maxShapes) this.#byShape.clear();
      this.#byShape.set(shape, compiled);
    }
    if (!compiled) return build(values);
    const parameters = [...compiled.parameters];
    for (let index = 0; index < compiled.slots.length; index++) parameters[compiled.slots[index]!] = values[index];
    return CompiledQuery.raw(compiled.sql, parameters);
  }

  #prepare(count: number, build: (values: readonly string[]) => CompiledQuery): Compiled | null {
    const placeholders = Array.from({ length: count }, (_, index) => `${SHAPE_MARK}${index}`);
    const { sql, parameters } = build(placeholders);
    if (sql.includes(SHAPE_MARK)) return null;
    // Each placeholder a whole parameter, once; no other
    // parameter holds one (a value transformed, a list bound as one array).
    const seen = new Set<unknown>();
    for (const value of parameters) {
      const text = typeof value === "string" ? value : typeof value === "object" ? JSON.stringify(value) : "";
      if (!text?.includes(SHAPE_MARK)) continue;
      if (typeof value !== "string" || !placeholders.includes(value) || seen.has(value)) return null;
      seen.add(value);
    }
    // A value the SQL does not hold may have steered its shape (an `if` on it): such a shape is not kept.
    if (seen.size !== placeholders.length) return null;
    return { sql, parameters, slots: placeholders.map((placeholder) => parameters.indexOf(placeholder)) };
  }
}
