import { Invalid } from "../../http/errors.js";

/**
 * A composite's text (issue 15, "composites as manuscripts"): a TipTap /
 * ProseMirror JSON document the server rebuilds from a whitelist — nothing
 * it does not understand is kept — and the HTML it writes from it, every
 * text and attribute escaped. A `member` block node places one of the
 * composite's member stories in the text.
 */

export type TextNode = {
  type: string;
  attrs?: Record<string, unknown>;
  marks?: { type: string; attrs?: Record<string, unknown> }[];
  content?: TextNode[];
  text?: string;
};

export type TextPart = { kind: "html"; html: string } | { kind: "member"; storyId: string };

export const TEXT_MAX_BYTES = 512 * 1024;
export const TEXT_MAX_DEPTH = 24;
export const TEXT_MAX_NODES = 20_000;

const BLOCKS_WITH_CONTENT = new Set([
  "doc",
  "paragraph",
  "heading",
  "bulletList",
  "orderedList",
  "listItem",
  "blockquote",
]);
const LEAVES = new Set(["horizontalRule", "hardBreak", "member"]);
/** What each container may hold (the editor's schema): a child in the wrong place is dropped, like an unknown one. */
const INLINE = new Set(["text", "hardBreak"]);
const BLOCK = new Set(["paragraph", "heading", "bulletList", "orderedList", "blockquote", "horizontalRule", "member"]);
const CHILDREN: Record<string, Set<string>> = {
  doc: BLOCK,
  blockquote: BLOCK,
  listItem: BLOCK,
  paragraph: INLINE,
  heading: INLINE,
  bulletList: new Set(["listItem"]),
  orderedList: new Set(["listItem"]),
};
/** Containers the schema wants non-empty: dropped when nothing is left in them. */
const NON_EMPTY = new Set(["bulletList", "orderedList", "blockquote"]);
const MARKS = new Set(["bold", "italic", "strike", "underline", "code", "link"]);
const SAFE_HREF = /^(https?:|mailto:)/i;

const invalid = (why: string) => new Invalid(`text: ${why}`, "invalid_text");

/**
 * The client's document rebuilt from the whitelist. Unknown nodes are dropped
 * (with their content), unknown marks and attributes too; links keep only
 * http(s)/mailto targets. A `member` node must name one of `members`.
 */
export function sanitizeText(input: unknown, members: readonly string[]): TextNode | null {
  if (input === null || input === undefined) return null;
  let size: number;
  try {
    size = Buffer.byteLength(JSON.stringify(input), "utf8");
  } catch {
    throw invalid("must be a JSON document");
  }
  if (size > TEXT_MAX_BYTES) throw invalid(`larger than ${TEXT_MAX_BYTES} bytes of JSON`);
  if (!isObject(input) || input.type !== "doc") throw invalid('must be a document {type:"doc", content:[…]}');
  let count = 0;
  const memberSet = new Set(members);
  const visit = (node: unknown, depth: number): TextNode | null => {
    if (depth > TEXT_MAX_DEPTH) throw invalid(`nested deeper than ${TEXT_MAX_DEPTH} levels`);
    if (++count > TEXT_MAX_NODES) throw invalid(`more than ${TEXT_MAX_NODES} nodes`);
    if (!isObject(node) || typeof node.type !== "string") return null;
    const type = node.type;
    if (type === "text") {
      if (typeof node.text !== "string" || node.text === "") return null;
      const marks = cleanMarks(node.marks);
      return marks.length > 0 ? { type, text: node.text, marks } : { type, text: node.text };
    }
    if (type === "member") {
      const storyId = isObject(node.attrs) ? node.attrs.storyId : undefined;
      if (typeof storyId !== "string" || !memberSet.has(storyId.toLowerCase())) {
        throw invalid(`a member node must name one of the composite's members (${String(storyId)})`);
      }
      return { type, attrs: { storyId: storyId.toLowerCase() } };
    }
    if (LEAVES.has(type)) return { type };
    if (!BLOCKS_WITH_CONTENT.has(type)) return null;
    const out: TextNode = { type };
    if (type === "heading") {
      const level = isObject(node.attrs) ? Number(node.attrs.level) : 1;
      out.attrs = { level: Number.isInteger(level) && level >= 1 && level <= 4 ? level : 1 };
    }
    if (type === "orderedList" && isObject(node.attrs) && Number.isInteger(node.attrs.start)) {
      const start = node.attrs.start as number;
      if (start >= 0 && start < 1_000_000 && start !== 1) out.attrs = { start };
    }
    const allowed = CHILDREN[type]!;
    const content = Array.isArray(node.content)
      ? node.content
          .map((child) => visit(child, depth + 1))
          .filter((child): child is TextNode => child !== null && allowed.has(child.type))
      : [];
    // A list item starts with a paragraph (the editor's schema).
    if (type === "listItem" && content[0]?.type !== "paragraph") content.unshift({ type: "paragraph" });
    if (NON_EMPTY.has(type) && content.length === 0) return null;
    if (content.length > 0) out.content = content;
    return out;
  };
  const doc = visit(input, 1)!;
  return { type: "doc", content: doc.content ?? [] };
}

function cleanMarks(marks: unknown): NonNullable<TextNode["marks"]> {
  if (!Array.isArray(marks)) return [];
  const out: NonNullable<TextNode["marks"]> = [];
  for (const mark of marks) {
    if (!isObject(mark) || typeof mark.type !== "string" || !MARKS.has(mark.type)) continue;
    if (out.some((kept) => kept.type === mark.type)) continue;
    if (mark.type === "link") {
      const href = isObject(mark.attrs) ? mark.attrs.href : undefined;
      if (typeof href !== "string" || !SAFE_HREF.test(href.trim()) || href.length > 2048) continue;
      out.push({ type: "link", attrs: { href: href.trim() } });
    } else out.push({ type: mark.type });
  }
  return out;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

export function escapeHtml(value: string): string {
  return value
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}

const MARK_TAGS: Record<string, string> = { bold: "strong", italic: "em", strike: "s", underline: "u", code: "code" };
const BLOCK_TAGS: Record<string, string> = {
  paragraph: "p",
  bulletList: "ul",
  orderedList: "ol",
  listItem: "li",
  blockquote: "blockquote",
};

/** The document's HTML split around its member nodes, so a page can place the media inline. */
export function textParts(doc: TextNode | null): TextPart[] {
  const parts: TextPart[] = [];
  let html = "";
  const flush = () => {
    if (html !== "") parts.push({ kind: "html", html });
    html = "";
  };
  const render = (node: TextNode): void => {
    switch (node.type) {
      case "text": {
        let out = escapeHtml(node.text ?? "");
        for (const mark of [...(node.marks ?? [])].reverse()) {
          if (mark.type === "link") {
            const href = escapeHtml(String(mark.attrs?.href ?? ""));
            out = `<a href="${href}" rel="noopener noreferrer nofollow" target="_blank">${out}</a>`;
          } else out = `<${MARK_TAGS[mark.type]}>${out}</${MARK_TAGS[mark.type]}>`;
        }
        html += out;
        return;
      }
      case "member":
        flush();
        parts.push({ kind: "member", storyId: String(node.attrs?.storyId) });
        return;
      case "hardBreak":
        html += "<br>";
        return;
      case "horizontalRule":
        html += "<hr>";
        return;
      case "doc":
        for (const child of node.content ?? []) render(child);
        return;
      default: {
        const tag = node.type === "heading" ? `h${Number(node.attrs?.level ?? 1)}` : BLOCK_TAGS[node.type];
        if (!tag) return;
        const start = node.type === "orderedList" && node.attrs?.start ? ` start="${Number(node.attrs.start)}"` : "";
        html += `<${tag}${start}>`;
        for (const child of node.content ?? []) render(child);
        html += `</${tag}>`;
      }
    }
  };
  if (doc) render(doc);
  flush();
  return parts;
}

/** The whole document as HTML, member nodes as placeholders a page may replace. */
export function textHtml(parts: TextPart[]): string {
  return parts
    .map((part) =>
      part.kind === "html" ? part.html : `<div data-member-story-id="${escapeHtml(part.storyId)}"></div>`,
    )
    .join("");
}

/** The text's plain words, for the search index. */
export function textWords(doc: TextNode | null): string {
  const words: string[] = [];
  const walk = (node: TextNode) => {
    if (node.type === "text" && node.text) words.push(node.text);
    for (const child of node.content ?? []) walk(child);
  };
  if (doc) walk(doc);
  return words.join(" ").replace(/\s+/g, " ").trim();
}

/** A short summary of a text for the story's history (not the whole document). */
export function textSummary(doc: TextNode | null): string | null {
  if (!doc) return null;
  const words = textWords(doc);
  return words.length > 80 ? `${words.slice(0, 80)}…` : words;
}
