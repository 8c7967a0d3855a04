/**
 * Tokenization shared by both dialects (see docs/search.md): text is
 * NFKC-normalised and lower-cased; runs of letters and digits are words; every
 * CJK character (Han, kana, hangul) is a word of its own. A Chinese query of
 * any length is then a phrase of single characters — 台风 is "台 风" — which
 * matches exactly the texts holding 台风 as a substring.
 */

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const TOKEN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]|[\p{L}\p{N}\p{M}]+/gu;

/** Longest word kept (longer runs are cut): keeps index entries small. */
const MAX_WORD = 64;

export function tokens(text: string): string[] {
  const found: string[] = [];
  for (const match of text.normalize("NFKC").toLowerCase().matchAll(TOKEN)) {
    const word = match[0];
    // Diacritics are folded so that "café" and "cafe" meet on both dialects.
    const folded = CJK.test(word) ? word : word.normalize("NFD").replace(/\p{M}+/gu, "");
    if (folded) found.push(folded.slice(0, MAX_WORD));
  }
  return found;
}

/** The indexed body: tokens separated by single spaces. */
export function indexBody(parts: (string | null | undefined)[]): string {
  return parts
    .filter((part): part is string => typeof part === "string" && part.length > 0)
    .map((part) => tokens(part).join(" "))
    .filter(Boolean)
    .join(" ");
}

/** One condition of a query: a phrase of tokens (one token: a word), the last one a prefix when `prefix`. */
export interface QueryTerm {
  tokens: string[];
  prefix: boolean;
}

/** Most terms in one query: more are ignored (a bounded query). */
const MAX_TERMS = 16;

/**
 * Parses what a user types: `"quoted phrases"`, bare words (all must match),
 * a trailing `*` for a prefix (`conf*`). A bare word that splits into several
 * tokens (台风, e-mail) is a phrase. Returns no terms when nothing searchable is left.
 */
export function parseQuery(input: string): QueryTerm[] {
  const terms: QueryTerm[] = [];
  const pattern = /"([^"]*)"(\*?)|(\S+)/g;
  for (const match of input.normalize("NFKC").matchAll(pattern)) {
    const raw = match[1] ?? match[3] ?? "";
    const prefix = match[1] !== undefined ? match[2] === "*" : raw.endsWith("*");
    const found = tokens(raw);
    if (found.length === 0) continue;
    // A prefix makes no sense on a single CJK character: each one is already a whole token.
    terms.push({ tokens: found, prefix: prefix && !CJK.test(found[found.length - 1]!) });
    if (terms.length === MAX_TERMS) break;
  }
  return terms;
}

/** FTS5 MATCH expression: tokens hold letters and digits only, so quoting them is safe. */
export function fts5Query(terms: QueryTerm[]): string {
  return terms.map((term) => `"${term.tokens.join(" ")}"${term.prefix ? " *" : ""}`).join(" AND ");
}

/** PostgreSQL to_tsquery('simple', …) expression. */
export function tsQuery(terms: QueryTerm[]): string {
  return terms
    .map((term) => {
      const parts = term.tokens.map((token, index) =>
        index === term.tokens.length - 1 && term.prefix ? `'${token}':*` : `'${token}'`,
      );
      return parts.length === 1 ? parts[0]! : `(${parts.join(" <-> ")})`;
    })
    .join(" & ");
}
