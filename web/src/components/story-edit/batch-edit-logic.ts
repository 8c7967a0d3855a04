import dayjs from "dayjs";
import type { BatchOperation } from "../../api/story-batch";
import type { PropertyField } from "../uploader/upload-logic";
import { IPTC_PROPERTIES } from "./edit-info-logic";

/** The fields a batch sets as text: the story's and the IPTC texts kept in its properties. */
export const SET_FIELDS = ["title", "caption", "source", "theme", "category", ...IPTC_PROPERTIES] as const;
export const LIST_FIELDS = ["keywords", "tags", "authors"] as const;
/** The set fields kept in `properties` (field-level access applies to them). */
export const IPTC_SET_FIELDS: ReadonlySet<string> = new Set(IPTC_PROPERTIES);

/** One operation as the dialog's form holds it. */
export interface BatchRow {
  kind: "add" | "remove" | "set" | "replace" | "template";
  field?: string;
  values?: string[];
  value?: unknown;
  find?: string;
  replace?: string;
  matchCase?: boolean;
  templateId?: string;
}

/** A custom property's value as the API takes it: dates as YYYY-MM-DD, empty as null (removed). */
function propertyValue(field: PropertyField | undefined, value: unknown): string | number | boolean | string[] | null {
  if (value === undefined || value === null || value === "") return null;
  if (field?.kind === "date" && dayjs.isDayjs(value)) return value.format("YYYY-MM-DD");
  if (Array.isArray(value)) return value.length === 0 ? null : value.map(String);
  if (typeof value === "number" || typeof value === "boolean") return value;
  return String(value);
}

/** The form's rows as the API's operations (`properties.<name>` fields become setProperty). */
export function batchOperations(rows: readonly BatchRow[], properties: readonly PropertyField[]): BatchOperation[] {
  return rows.map((row): BatchOperation => {
    switch (row.kind) {
      case "add":
      case "remove":
        return {
          op: row.kind,
          field: (row.field ?? "keywords") as (typeof LIST_FIELDS)[number],
          values: (row.values ?? []).map((value) => value.trim()).filter(Boolean),
        };
      case "replace":
        return {
          op: "replace",
          field: "caption",
          find: row.find ?? "",
          replace: row.replace ?? "",
          matchCase: row.matchCase ?? false,
        };
      case "template":
        return { op: "template", templateId: row.templateId ?? "" };
      default: {
        const field = row.field ?? "caption";
        if (field.startsWith("properties.")) {
          const name = field.slice("properties.".length);
          const definition = properties.find((entry) => entry.name === name);
          return { op: "setProperty", name, value: propertyValue(definition, row.value) };
        }
        return {
          op: "set",
          field: field as (typeof SET_FIELDS)[number],
          value: typeof row.value === "string" ? row.value : "",
        };
      }
    }
  });
}
