import { type SortedEntryInput, type SortedEntryView, sortedEntry } from "./sorted-entry.js";

const theme = sortedEntry({ table: "themes", noun: "theme", metaId: "CatalogueTheme" });

export const themeSchema = theme.schema;
export const themeInput = theme.input;
export type ThemeView = SortedEntryView;
export type ThemeInput = SortedEntryInput;
export const themeDefinition = theme.definition;
