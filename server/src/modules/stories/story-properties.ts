import { Invalid } from "../../http/errors.js";
import type { MediaType } from "./story-types.js";

/** A custom story property as the catalogue defines it (what `/properties/list` answers). */
export interface PropertyDefinition {
  name: string;
  label: string;
  kind: "text" | "textarea" | "number" | "date" | "select" | "multiselect" | "switch";
  required: boolean;
  options: { value: string; label: string }[];
}

/** The catalogue's property definitions for a story type in a library (every library's plus the library's own). */
export interface PropertyDefinitions {
  lookup(query: { storytype: MediaType; libraryId: string }): Promise<PropertyDefinition[]>;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

function isEmpty(value: unknown): boolean {
  return value === null || value === undefined || value === "" || (Array.isArray(value) && value.length === 0);
}

/** Why a value does not fit its property, or null when it does. */
export function propertyValueProblem(definition: PropertyDefinition, value: unknown): string | null {
  const values = definition.options.map((option) => option.value);
  switch (definition.kind) {
    case "text":
    case "textarea":
      return typeof value === "string" ? null : "must be text";
    case "number":
      return typeof value === "number" && Number.isFinite(value) ? null : "must be a number";
    case "date":
      return typeof value === "string" && DATE.test(value) && !Number.isNaN(Date.parse(value))
        ? null
        : "must be a date written YYYY-MM-DD";
    case "switch":
      return typeof value === "boolean" ? null : "must be true or false";
    case "select":
      return typeof value === "string" && values.includes(value)
        ? null
        : `${JSON.stringify(value)} is not one of the code list's values (${values.join(", ")})`;
    case "multiselect": {
      if (!Array.isArray(value) || value.some((item) => typeof item !== "string")) return "must be a list of values";
      const missing = value.filter((item) => !values.includes(item));
      return missing.length === 0
        ? null
        : `holds values the code list lacks: ${missing.join(", ")} (it has ${values.join(", ")})`;
    }
  }
}

/**
 * Checks custom property values against their definitions: each value must fit
 * its kind (a select's one of its code list's values); with `complete`, the
 * story's properties after the patch must hold every required one (with
 * `"patched"`, every required one the patch names). Keys no
 * definition names (the technical facts extraction adds) pass as they are.
 * Throws 400 `invalid_property` naming `{path}.{name}`.
 */
export function checkProperties(
  definitions: readonly PropertyDefinition[],
  patch: Record<string, unknown>,
  options: { path: string; current?: Record<string, unknown>; complete: boolean | "patched" },
): void {
  const byName = new Map(definitions.map((definition) => [definition.name, definition]));
  for (const [name, value] of Object.entries(patch)) {
    const definition = byName.get(name);
    if (!definition || value === null) continue;
    const problem = propertyValueProblem(definition, value);
    if (problem) throw new Invalid(`${options.path}.${name}: ${problem}`, "invalid_property");
  }
  if (!options.complete) return;
  for (const definition of definitions) {
    if (!definition.required) continue;
    // "patched" (an edit of a committed story): a required property may not be emptied, but one the story never
    // had (committed without properties, or before it became required) does not block editing the others.
    if (options.complete === "patched" && !(definition.name in patch)) continue;
    const value = definition.name in patch ? patch[definition.name] : options.current?.[definition.name];
    if (isEmpty(value)) {
      throw new Invalid(
        `${options.path}.${definition.name}: ${definition.label} (${definition.name}) is required`,
        "invalid_property",
      );
    }
  }
}
