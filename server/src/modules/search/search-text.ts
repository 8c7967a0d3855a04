/**
 * Tokenization shared by both dialects (see docs/search.md): text is
 * NFKC-normalised and lower-cased; runs of letters and digits are words;
 * every CJK character (Han, kana, hangul) is a word of its own, and a script
 * change (5G手机, iPhone发布会) ends a word. A Chinese query of any length is
 * then a phrase of single characters — 台风 is "台 风" — which matches exactly
 * the texts holding 台风 as a substring of one run of Chinese.
 *
 * Phrases never reach across a break: a field boundary, any space or
 * punctuation next to a CJK character (`电视台 风险`, `舞台，风景`), and
 * punctuation between words (`press. Conference`). The indexed token stream
 * holds a GAP token there, which takes a position, so the tokens on either
 * side are not adjacent; no query can hold a GAP.
 */

const CJK_CLASS = String.raw`\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}`;
const CJK = new RegExp(`[${CJK_CLASS}]`, "u");
/** A CJK character, a word (letters, digits, marks of other scripts), or what lies between. */
const PIECE = new RegExp(
  `(?<cjk>[${CJK_CLASS}])|(?<word>(?:(?![${CJK_CLASS}])[\\p{L}\\p{N}\\p{M}])+)|(?<between>(?:(?![\\p{L}\\p{N}\\p{M}])[\\s\\S])+)`,
  "gu",
);
/** Characters that join the parts of one word without breaking a phrase: e-mail, IMG_42.jpg, don't, AT&T. */
const JOINERS = /^[-_.'’/:@&+#]+$/u;

/**
 * The break token: a private-use character, which both the FTS5 unicode61
 * tokenizer and our tsvector take as a token of its own, and which tokens()
 * never emits (it keeps letters, digits and marks only).
 */
export const GAP = "\uE000";

/** Longest word kept (longer runs are cut): keeps index entries small. */
const MAX_WORD = 64;

/** Whether what lies between two tokens breaks a phrase (see the top of this file). */
function breaks(between: string, cjkAround: boolean): boolean {
  if (between === "") return false;
  if (cjkAround) return true;
  const spaced = /\s/u.test(between);
  const marks = between.replace(/\s+/gu, "");
  return spaced ? marks !== "" : !JOINERS.test(marks);
}

/** The tokens of one field, with GAP where a phrase must not reach across. */
export function fieldTokens(text: string): string[] {
  const found: string[] = [];
  let between = "";
  let lastCjk = false;
  for (const match of text.normalize("NFKC").toLowerCase().matchAll(PIECE)) {
    const { cjk, word } = match.groups!;
    if (cjk === undefined && word === undefined) {
      between += match[0];
      continue;
    }
    // Diacritics are folded so that "café" and "cafe" meet on both dialects.
    const token =
      cjk ??
      word!
        .normalize("NFD")
        .replace(/\p{M}+/gu, "")
        .slice(0, MAX_WORD);
    if (!token) continue;
    if (found.length > 0 && found[found.length - 1] !== GAP && breaks(between, lastCjk || cjk !== undefined))
      found.push(GAP);
    found.push(token);
    between = "";
    lastCjk = cjk !== undefined;
  }
  return found;
}

/** The searchable tokens of a text (no GAPs). */
export function tokens(text: string): string[] {
  return fieldTokens(text).filter((token) => token !== GAP);
}

/** The indexed token stream of a story's fields: each field's tokens, a GAP between fields. */
export function indexTokens(parts: (string | null | undefined)[]): string[] {
  const stream: string[] = [];
  for (const part of parts) {
    if (typeof part !== "string" || part.length === 0) continue;
    const found = fieldTokens(part);
    if (found.length === 0) continue;
    if (stream.length > 0) stream.push(GAP);
    stream.push(...found);
  }
  return stream;
}

/** The indexed body (SQLite's FTS5 column): the token stream separated by single spaces. */
export function indexBody(parts: (string | null | undefined)[]): string {
  return indexTokens(parts).join(" ");
}

/** tsvector's largest position: later tokens all get it (PostgreSQL's own limit). */
const MAX_POSITION = 16_383;

/**
 * A tsvector literal of an indexed body (cast with ::tsvector): each token at
 * its place in the stream, GAPs taking a place but not indexed.
 */
export function tsvectorLiteral(body: string): string {
  const positions = new Map<string, number[]>();
  body.split(" ").forEach((token, index) => {
    if (token === GAP || token === "") return;
    const list = positions.get(token);
    const position = Math.min(index + 1, MAX_POSITION);
    if (!list) positions.set(token, [position]);
    // A lexeme keeps at most 256 positions, as to_tsvector does.
    else if (list.length < 256 && list[list.length - 1] !== position) list.push(position);
  });
  return [...positions].map(([token, at]) => `${quoteLexeme(token)}:${at.join(",")}`).join(" ");
}

/** A lexeme quoted for tsvector/tsquery input (tokens hold letters and digits; quotes and backslashes escaped all the same). */
function quoteLexeme(token: string): string {
  return `'${token.replace(/['\\]/g, (character) => `\\${character}`)}'`;
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
 * tokens (台风, e-mail, 5G手机) is a phrase; where the text would hold a break
 * (`台，风`, `"press, conference"`) it is two terms instead. Returns no terms
 * when nothing searchable is left.
 */
export function parseQuery(input: string): QueryTerm[] {
  const terms: QueryTerm[] = [];
  const pattern = /"([^"]*)"(\*?)|(\S+)/g;
  for (const match of input.normalize("NFKC").matchAll(pattern)) {
    const raw = match[1] ?? match[3] ?? "";
    const prefix = match[1] !== undefined ? match[2] === "*" : raw.endsWith("*");
    const phrases = fieldTokens(raw)
      .join(" ")
      .split(GAP)
      .map((phrase) => phrase.split(" ").filter(Boolean))
      .filter((phrase) => phrase.length > 0);
    phrases.forEach((found, index) => {
      if (terms.length === MAX_TERMS) return;
      // A prefix makes no sense on a single CJK character: each one is already a whole token.
      const last = index === phrases.length - 1;
      terms.push({ tokens: found, prefix: last && prefix && !CJK.test(found[found.length - 1]!) });
    });
    if (terms.length === MAX_TERMS) break;
  }
  return terms;
}

/**
 * The token a restricted property's text is indexed as (docs/property-access.md): its tag (a private-use
 * character, which tokens() never emits, and a hash of the property's name) before each token, so that
 * only a query that asks for the tag finds it.
 */
export const TAG_MARK = "\uE001";

/**
 * A term's variants: its tokens as they are, and with each tag of `tags` before every token (the
 * restricted properties the searcher may see).
 */
function variants(term: QueryTerm, tags: readonly string[]): string[][] {
  return ["", ...tags].map((tag) => term.tokens.map((token) => tag + token));
}

/**
 * FTS5 MATCH expression: tokens hold letters and digits only (a tag, a private-use character and hex
 * digits), so quoting them is safe. `tags`: each term also matches in these restricted properties' text.
 */
export function fts5Query(terms: QueryTerm[], tags: readonly string[] = []): string {
  return terms
    .map((term) => {
      const phrases = variants(term, tags).map((tokens) => `"${tokens.join(" ")}"${term.prefix ? " *" : ""}`);
      return phrases.length === 1 ? phrases[0]! : `(${phrases.join(" OR ")})`;
    })
    .join(" AND ");
}

/**
 * A tsquery literal (cast with ::tsquery: the lexemes are taken as they are, as the tsvector holds them).
 * `tags`: each term also matches in these restricted properties' text.
 */
export function tsQuery(terms: QueryTerm[], tags: readonly string[] = []): string {
  return terms
    .map((term) => {
      const phrases = variants(term, tags).map((tokens) => {
        const parts = tokens.map((token, index) =>
          index === tokens.length - 1 && term.prefix ? `${quoteLexeme(token)}:*` : quoteLexeme(token),
        );
        return parts.length === 1 ? parts[0]! : `(${parts.join(" <-> ")})`;
      });
      return phrases.length === 1 ? phrases[0]! : `(${phrases.join(" | ")})`;
    })
    .join(" & ");
}
