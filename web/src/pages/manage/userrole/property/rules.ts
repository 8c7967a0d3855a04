import type { PropertyRule } from "../../../../api/identity-admin";

/** One row of the page: a story property with the role's access to it. */
export interface PropertyRow {
  /** The key in a story's `properties`. */
  property: string;
  /** The catalogue's labels (one per story type it is defined for); empty when only a rule names it. */
  labels: string[];
  visible: boolean;
  editable: boolean;
}

/**
 * The page's rows: every property the catalogue defines and every property a rule names, by name; a property
 * without a rule is visible and editable. Hidden implies read-only, as on the server.
 */
export function rowsOf(defined: { name: string; label: string }[], rules: PropertyRule[]): PropertyRow[] {
  const rows = new Map<string, PropertyRow>();
  for (const property of defined) {
    const row = rows.get(property.name) ?? { property: property.name, labels: [], visible: true, editable: true };
    if (!row.labels.includes(property.label)) row.labels.push(property.label);
    rows.set(property.name, row);
  }
  for (const rule of rules) {
    const row = rows.get(rule.property) ?? { property: rule.property, labels: [], visible: true, editable: true };
    row.visible = rule.visible;
    row.editable = rule.visible && rule.editable;
    rows.set(rule.property, row);
  }
  return [...rows.values()].sort((a, b) => a.property.localeCompare(b.property));
}

/** A row changed by one switch: hiding makes it read-only; making it editable makes it visible. */
export function withAccess(row: PropertyRow, change: { visible?: boolean; editable?: boolean }): PropertyRow {
  const visible = change.visible ?? (change.editable === true ? true : row.visible);
  const editable = visible ? (change.editable ?? row.editable) : false;
  return { ...row, visible, editable };
}

/** What the server stores: only the rows that restrict something. */
export function rulesOf(rows: PropertyRow[]): PropertyRule[] {
  return rows
    .filter((row) => !(row.visible && row.editable))
    .map((row) => ({ property: row.property, visible: row.visible, editable: row.visible && row.editable }));
}
