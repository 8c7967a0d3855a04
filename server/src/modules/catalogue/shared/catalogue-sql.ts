import { type Expression, type SqlBool, sql } from "kysely";
import { containsPattern } from "./catalogue-schema.js";

/** `lower(column) like '%text%'`, the user's wildcards escaped, with an escape character both dialects understand. */
export function likeAnyCase(column: string, text: string): Expression<SqlBool> {
  return sql<SqlBool>`lower(${sql.ref(column)}) like ${containsPattern(text)} escape '\\'`;
}

/** `lower(column) = lower(text)`. */
export function equalsAnyCase(column: string, text: string): Expression<SqlBool> {
  return sql<SqlBool>`lower(${sql.ref(column)}) = ${text.toLowerCase()}`;
}
