import type { ManuscriptMember, ManuscriptPart, TextDoc, TextNode } from "../../api/composites";

/** The node type of a member placed in the text (the server's contract). */
export const MEMBER_NODE = "member";

/** The story ids of the members placed in a text, in reading order (each once). */
export function placedMembers(doc: TextNode | null | undefined): string[] {
  const found: string[] = [];
  const walk = (node: TextNode) => {
    if (node.type === MEMBER_NODE && typeof node.attrs?.storyId === "string" && !found.includes(node.attrs.storyId)) {
      found.push(node.attrs.storyId);
    }
    for (const child of node.content ?? []) walk(child);
  };
  if (doc) walk(doc);
  return found;
}

/** A text without the member nodes of stories no longer members. */
export function withoutMembers(doc: TextDoc, keep: ReadonlySet<string>): TextDoc {
  const prune = (node: TextNode): TextNode => ({
    ...node,
    ...(node.content
      ? {
          content: node.content
            .filter((child) => child.type !== MEMBER_NODE || keep.has(String(child.attrs?.storyId)))
            .map(prune),
        }
      : {}),
  });
  return prune(doc) as TextDoc;
}

/** Whether a text says nothing (an empty editor: one empty paragraph): saved as null. */
export function isEmptyText(doc: TextNode | null | undefined): boolean {
  if (!doc) return true;
  const meaningful = (node: TextNode): boolean =>
    node.type === MEMBER_NODE ||
    node.type === "horizontalRule" ||
    (node.type === "text" && (node.text ?? "").trim() !== "") ||
    (node.content ?? []).some(meaningful);
  return !meaningful(doc);
}

/** The members the text does not place: listed after it, in the composite's order. */
export function unplacedMembers<M extends { storyId: string }>(
  parts: readonly ManuscriptPart[],
  members: readonly M[],
): M[] {
  const placed = new Set(parts.flatMap((part) => (part.kind === "member" ? [part.storyId] : [])));
  return members.filter((member) => !placed.has(member.storyId));
}

/** Adds members not already there, after the others. */
export function addMembers(members: readonly ManuscriptMember[], more: readonly ManuscriptMember[]) {
  const have = new Set(members.map((member) => member.storyId));
  const next = [...members];
  for (const member of more) {
    if (have.has(member.storyId) || member.type === "composite") continue;
    have.add(member.storyId);
    next.push(member);
  }
  return next;
}

/** Moves the member `from` to where `to` is (a drag's drop). */
export function moveMember<M extends { storyId: string }>(members: readonly M[], from: string, to: string): M[] {
  const source = members.findIndex((member) => member.storyId === from);
  const target = members.findIndex((member) => member.storyId === to);
  if (source < 0 || target < 0 || source === target) return [...members];
  const next = [...members];
  const [moved] = next.splice(source, 1);
  next.splice(target, 0, moved as M);
  return next;
}
