import { Conflict } from "../../../http/errors.js";
import type { UsageKind } from "./catalogue-usage.js";

/** A unique index refused a row (SQLite or PostgreSQL): the race the service's own check lost. */
export function isUniqueViolation(error: unknown): boolean {
  if (!error || typeof error !== "object") return false;
  const code = (error as { code?: unknown }).code;
  return code === "SQLITE_CONSTRAINT_UNIQUE" || code === "23505";
}

/** Runs a write and turns a unique-index refusal into the 409 the service would have given. */
export async function guardUnique<T>(write: () => Promise<T>, conflict: () => Conflict): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict();
    throw error;
  }
}

export function duplicateName(noun: string, name: string): Conflict {
  return new Conflict(`a ${noun} named "${name}" already exists`, "duplicate_name").withMessageCode(
    "catalogue.duplicateName",
    { name },
  );
}

/** Spec: deleting an entry stories use is refused, saying how many use it. */
export function inUse(kind: UsageKind | string, name: string, count: number, what = "stories"): Conflict {
  const noun = count === 1 ? what.replace(/ies$/, "y").replace(/s$/, "") : what;
  return new Conflict(
    `the ${kind} "${name}" is used by ${count} ${noun} and cannot be deleted`,
    "in_use",
  ).withMessageCode(what === "story properties" ? "catalogue.inUseByProperties" : "catalogue.inUse", { name, count });
}
