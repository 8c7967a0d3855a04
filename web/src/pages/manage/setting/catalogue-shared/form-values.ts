/**
 * Turning the back area's catalogue forms into API bodies and back: trimmed
 * texts, blanks as null, category trees for the parent picker, and the
 * default value of a story property, which the API keeps as text.
 */
import type { Category, PropertyKind } from "../../../../api/catalogue";

/** A trimmed text, or null when blank. */
export function textOrNull(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const trimmed = value.trim();
  return trimmed === "" ? null : trimmed;
}

export function trimmed(value: unknown): string {
  return typeof value === "string" ? value.trim() : "";
}

export function orderOrZero(value: unknown): number {
  const number = typeof value === "number" ? value : Number(value);
  return Number.isInteger(number) && number >= 0 ? number : 0;
}

export interface TreeOption {
  title: string;
  value: string;
  children: TreeOption[];
}

/**
 * The parent picker's tree. `exclude` (the category being edited) is left
 * out with its whole subtree: a category cannot move under itself.
 */
export function categoryTree(categories: readonly Category[], exclude?: string): TreeOption[] {
  const children = new Map<string | null, Category[]>();
  for (const category of categories) {
    const siblings = children.get(category.parentId) ?? [];
    siblings.push(category);
    children.set(category.parentId, siblings);
  }
  const build = (parentId: string | null, seen: Set<string>): TreeOption[] =>
    (children.get(parentId) ?? [])
      .filter((category) => category.id !== exclude && !seen.has(category.id))
      .map((category) => ({
        title: category.name,
        value: category.id,
        children: build(category.id, new Set([...seen, category.id])),
      }));
  return build(null, new Set());
}

/** The kinds whose choices come from a code list. */
export function needsCodelist(kind: PropertyKind | undefined): boolean {
  return kind === "select" || kind === "multiselect";
}

/** What the default-value field holds for a kind: a list for multiselect, else text ("true"/"false" for switch). */
export type DefaultFieldValue = string | string[] | boolean | undefined;

export function defaultToField(kind: PropertyKind | undefined, value: string | null): DefaultFieldValue {
  if (value === null) return kind === "multiselect" ? [] : undefined;
  switch (kind) {
    case "multiselect":
      return value
        .split(",")
        .map((part) => part.trim())
        .filter(Boolean);
    default:
      return value;
  }
}

export function defaultFromField(kind: PropertyKind | undefined, value: DefaultFieldValue): string | null {
  if (value === undefined || value === null) return null;
  if (Array.isArray(value)) return value.length === 0 ? null : value.join(",");
  if (typeof value === "boolean") return kind === "switch" ? String(value) : null;
  return textOrNull(value);
}

/** YYYY-MM-DD, the date format of default values. */
export const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
export const NUMBER_PATTERN = /^-?\d+(\.\d+)?$/;
