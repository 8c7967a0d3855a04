import { z } from "zod";
import { type SortedEntryInput, type SortedEntryView, sortedEntry } from "./sorted-entry.js";

const source = sortedEntry({ table: "sources", noun: "source", metaId: "CatalogueSource" });

export const sourceSchema = source.schema;
export const sourceInput = source.input;
export type SourceView = SortedEntryView;
export type SourceInput = SortedEntryInput;
export const sourceDefinition = source.definition;

/** An option of the source picker (/source/option). The value is the name, which stories record. */
export const sourceOptionSchema = z
  .object({ id: z.string(), label: z.string(), value: z.string() })
  .meta({ id: "CatalogueSourceOption" });
