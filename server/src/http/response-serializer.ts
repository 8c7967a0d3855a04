import type { FastifySerializerCompiler } from "fastify";
import { serializerCompiler as zodSerializerCompiler } from "fastify-type-provider-zod";
import { $ZodType, safeParse } from "zod/v4/core";

/**
 * Gives what zod's parse would give for a value, or a value JSON.stringify
 * writes the same: the value itself where zod passes it through (strings,
 * numbers, booleans, enums, unknowns, arrays of those, records of unknowns)
 * and where zod builds a new object or array but the given one already has
 * its shape (the declared properties, in the schema's order, none other);
 * a new object with the declared properties in the schema's order otherwise.
 * Throws when the value is not one it takes as it stands.
 */
type Copier = (value: unknown) => unknown;

/** The fast path's refusal: the checked path (zod) answers instead, with its own result or error. */
class NotFast extends Error {}
const notFast = new NotFast("the value is not one the compiled serialiser writes");

function refuse(): never {
  throw notFast;
}

/** The parts of a zod 4 definition this file reads (`schema._zod.def`). */
interface Def {
  type: string;
  checks?: { _zod: { def: { check: string; format?: string; value?: unknown; inclusive?: boolean } } }[];
  shape?: Record<string, $ZodType>;
  catchall?: $ZodType;
  element?: $ZodType;
  innerType?: $ZodType;
  keyType?: $ZodType;
  valueType?: $ZodType;
}

const defOf = (schema: $ZodType) => schema._zod.def as unknown as Def;

/** A definition with nothing but these keys (no coercion, format, checks or mode the fast path would miss). */
function only(def: Def, ...keys: string[]): boolean {
  return Object.keys(def).every((key) => key === "type" || keys.includes(key));
}

/** Kinds zod passes through unchanged once they pass the type test. */
const copyString: Copier = (value) => (typeof value === "string" ? value : refuse());
const copyBoolean: Copier = (value) => (typeof value === "boolean" ? value : refuse());
const copyUnknown: Copier = (value) => value;

function numberCopier(def: Def): Copier | undefined {
  if (!only(def, "checks")) return undefined;
  const tests: ((value: number) => boolean)[] = [];
  for (const check of def.checks ?? []) {
    const { check: kind, format, value: bound, inclusive } = check._zod.def;
    if (kind === "number_format" && format === "safeint") tests.push(Number.isSafeInteger);
    else if (kind === "greater_than" && typeof bound === "number")
      tests.push(inclusive ? (value) => value >= bound : (value) => value > bound);
    else if (kind === "less_than" && typeof bound === "number")
      tests.push(inclusive ? (value) => value <= bound : (value) => value < bound);
    else return undefined;
  }
  return (value) => {
    if (typeof value !== "number" || !Number.isFinite(value)) refuse();
    for (const test of tests) if (!test(value)) refuse();
    return value;
  };
}

/** An enum or a literal: the values zod itself compares with (`_zod.values`). */
function oneOfCopier(allowed: ReadonlySet<unknown> | undefined): Copier | undefined {
  if (!allowed) return undefined;
  for (const value of allowed)
    if (!(typeof value === "string" || typeof value === "boolean" || value === null || Number.isFinite(value)))
      return undefined;
  return (value) => (allowed.has(value) ? value : refuse());
}

/**
 * What a property's value is tested with where the generated object copier can test it in place, as JS
 * source over `v` that is true when the value is refused: strings, booleans and their nullable forms, the
 * kinds a view holds most (the copier of anything else is called).
 */
function inlineRefusal(schema: $ZodType): string | undefined {
  const def = defOf(schema);
  if (def.type === "string" && only(def)) return `typeof v !== "string"`;
  if (def.type === "boolean" && only(def)) return `typeof v !== "boolean"`;
  if (def.type === "nullable" && only(def, "innerType") && def.innerType) {
    const inner = inlineRefusal(def.innerType);
    return inner === undefined ? undefined : `v !== null && ${inner}`;
  }
  return undefined;
}

function objectCopier(def: Def, copierOf: (schema: $ZodType) => Copier): Copier | undefined {
  if (!only(def, "shape") || !def.shape || Object.getOwnPropertySymbols(def.shape).length > 0) return undefined;
  const shape = def.shape;
  // zod's output leaves out a __proto__ property of the shape.
  const properties = Object.keys(shape)
    .filter((key) => key !== "__proto__")
    .map((key) => ({ key, optional: defOf(shape[key]!).type === "optional", schema: shape[key]! }));
  const keys = properties.map((property) => property.key);
  const copiers = properties.map((property) => copierOf(property.schema));

  /** A new object with the declared properties before `end`, as they are in `object`. */
  function copiedBefore(object: Record<string, unknown>, end: number): Record<string, unknown> {
    const copy: Record<string, unknown> = {};
    for (let index = 0; index < end; index++) {
      const key = keys[index]!;
      const field = object[key];
      if (field !== undefined) copy[key] = field;
    }
    return copy;
  }

  /**
   * Whether JSON.stringify writes `object` as it would write its copy: a plain object whose enumerable
   * keys are declared ones, in the declared order, and every one of the `present` declared properties
   * with a value among them (a view built in the schema's shape is given as it is).
   */
  function writesAsDeclared(object: Record<string, unknown>, present: number): boolean {
    if (Object.getPrototypeOf(object) !== Object.prototype) return false;
    const own = Object.keys(object);
    // The usual case: every declared key, in order, each with a value (present counted them).
    if (own.length === keys.length && present === keys.length) {
      let same = true;
      for (let index = 0; index < own.length && same; index++) same = own[index] === keys[index];
      if (same) return true;
    }
    let next = 0;
    let withValue = 0;
    for (const key of own) {
      while (next < keys.length && keys[next] !== key) next++;
      if (next === keys.length) return false;
      if (object[key] !== undefined) withValue++;
      next++;
    }
    return withValue === present;
  }

  // One function per object schema, generated: each property is read by its own name (a site the view's
  // shape keeps fast, where a loop's `object[key]` reads every property of every schema through one
  // site) and strings and booleans are tested in place (issue 21: the generic loop was ~8 % of a search
  // page's CPU). Names are written as JSON strings, so no name is code. The copy is made only from the
  // first property whose value changed (the copies of a search page's 50 views were a large part of its
  // CPU and of its garbage).
  const steps = properties.map(({ key, optional, schema }, index) => {
    const name = JSON.stringify(key);
    const missing = optional ? "" : "refuse();";
    const test = inlineRefusal(schema);
    const copied = test === undefined ? `c = copiers[${index}](v);` : `if (${test}) refuse(); c = v;`;
    return `v = o[${name}];
if (v === undefined) { ${missing} } else {
  present++; ${copied}
  if (copy === undefined && c !== v) copy = copiedBefore(o, ${index});
  if (copy !== undefined) copy[${name}] = c;
}`;
  });
  const source = `return (value) => {
if (typeof value !== "object" || value === null || Array.isArray(value)) refuse();
const o = value;
let v, c, copy, present = 0;
${steps.join("\n")}
if (copy !== undefined) return copy;
return writesAsDeclared(o, present) ? o : copiedBefore(o, ${properties.length});
};`;
  return new Function("refuse", "copiers", "copiedBefore", "writesAsDeclared", source)(
    refuse,
    copiers,
    copiedBefore,
    writesAsDeclared,
  ) as Copier;
}

/**
 * A record of string keys: zod copies its own enumerable keys but __proto__ and refuses symbol keys. When
 * the values are unknowns, the copy would write as the record does, so the record itself is given.
 */
function recordCopier(def: Def, copierOf: (schema: $ZodType) => Copier): Copier | undefined {
  if (!only(def, "keyType", "valueType") || !def.keyType || !def.valueType) return undefined;
  const keyDef = defOf(def.keyType);
  if (keyDef.type !== "string" || !only(keyDef)) return undefined;
  const valueDef = defOf(def.valueType);
  const passThrough = valueDef.type === "unknown" && only(valueDef);
  const copyValue = copierOf(def.valueType);
  return (value) => {
    if (typeof value !== "object" || value === null) refuse();
    const prototype = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null) refuse();
    if (Object.getOwnPropertySymbols(value).length > 0 || Object.hasOwn(value, "__proto__")) refuse();
    if (passThrough) return value;
    const record = value as Record<string, unknown>;
    const copy: Record<string, unknown> = {};
    for (const key of Object.keys(record)) {
      const entry = record[key];
      if (entry === undefined) refuse();
      copy[key] = copyValue(entry);
    }
    return copy;
  };
}

/** An array: zod checks every element (holes as undefined); an array of strings writes as itself. */
function arrayCopier(def: Def, copierOf: (schema: $ZodType) => Copier): Copier | undefined {
  if (!only(def, "element") || !def.element) return undefined;
  const elementDef = defOf(def.element);
  const copy = copierOf(def.element);
  if (elementDef.type === "string" && only(elementDef)) {
    return (value) => {
      if (!Array.isArray(value)) refuse();
      for (let index = 0; index < value.length; index++) if (typeof value[index] !== "string") refuse();
      return value;
    };
  }
  return (value) => {
    if (!Array.isArray(value)) refuse();
    // Like objects: the array itself when no element changed, a copy from the first one that did.
    let copied: unknown[] | undefined;
    for (let index = 0; index < value.length; index++) {
      const element = value[index];
      if (element === undefined) refuse();
      const elementCopy = copy(element);
      if (copied === undefined && elementCopy !== element) copied = value.slice(0, index);
      if (copied !== undefined) copied.push(elementCopy);
    }
    if (copied !== undefined) return copied;
    return Object.getPrototypeOf(value) === Array.prototype ? value : Array.from(value);
  };
}

/** Anything else: zod checks (and may transform) it. */
function checkedCopier(schema: $ZodType): Copier {
  return (value) => {
    if (value === undefined) refuse();
    const result = safeParse(schema, value);
    return result.success ? result.data : refuse();
  };
}

/**
 * The copier of a schema and of the schemas in it, each made once (a schema that holds itself, like a menu
 * tree, reaches its own copier through the forwarding one).
 */
export function compileCopier(root: $ZodType): Copier {
  const made = new Map<$ZodType, Copier>();
  const copierOf = (schema: $ZodType): Copier => {
    const known = made.get(schema);
    if (known) return known;
    let target: Copier | undefined;
    made.set(schema, (value) => target!(value));
    target = copierFor(schema, copierOf);
    made.set(schema, target);
    return target;
  };
  return copierOf(root);
}

function copierFor(schema: $ZodType, copierOf: (schema: $ZodType) => Copier): Copier {
  const def = defOf(schema);
  let copier: Copier | undefined;
  switch (def.type) {
    case "string":
      copier = only(def) ? copyString : undefined;
      break;
    case "boolean":
      copier = only(def) ? copyBoolean : undefined;
      break;
    case "number":
      copier = numberCopier(def);
      break;
    case "enum":
      copier = only(def, "entries") ? oneOfCopier(schema._zod.values) : undefined;
      break;
    case "literal":
      copier = only(def, "values") ? oneOfCopier(schema._zod.values) : undefined;
      break;
    case "unknown":
    case "any":
      copier = only(def) ? copyUnknown : undefined;
      break;
    case "nullable":
      if (only(def, "innerType") && def.innerType) {
        const inner = copierOf(def.innerType);
        copier = (value) => (value === null ? null : inner(value));
      }
      break;
    case "optional":
      if (only(def, "innerType") && def.innerType) {
        const inner = copierOf(def.innerType);
        copier = (value) => (value === undefined ? refuse() : inner(value));
      }
      break;
    case "object":
      copier = objectCopier(def, copierOf);
      break;
    case "record":
      copier = recordCopier(def, copierOf);
      break;
    case "array":
      copier = arrayCopier(def, copierOf);
      break;
  }
  return copier ?? checkedCopier(schema);
}

/**
 * A serialiser compiled from a zod schema: JSON.stringify of what zod's parse
 * gives (the same text: properties in the schema's order, undeclared ones
 * left out), without zod's general machinery, for every value it takes. A
 * value it does not take (one zod would refuse, or an unusual one) goes to
 * `fallback`, which answers as before.
 */
export function compileSerializer(schema: $ZodType, fallback: (data: unknown) => string): (data: unknown) => string {
  const copy = compileCopier(schema);
  return (data) => {
    let copied: unknown;
    try {
      copied = copy(data);
    } catch {
      return fallback(data);
    }
    return JSON.stringify(copied);
  };
}

/**
 * Fastify's response serialiser for the API's zod schemas (issue 21: the zod
 * check and its copy were a large part of a story's and a search page's
 * CPU): compiled once per route and status, zod's own serialiser
 * (fastify-type-provider-zod) behind it for the values the compiled one
 * does not take, so answers and errors stay as they were.
 */
export const responseSerializerCompiler: FastifySerializerCompiler<unknown> = (route) => {
  const checked = zodSerializerCompiler(route as Parameters<typeof zodSerializerCompiler>[0]) as (
    data: unknown,
  ) => string;
  const given = route.schema as unknown;
  const schema =
    given instanceof $ZodType
      ? given
      : (given as { properties?: unknown } | undefined)?.properties instanceof $ZodType
        ? ((given as { properties: $ZodType }).properties as $ZodType)
        : undefined;
  return schema ? compileSerializer(schema, checked) : checked;
};
