import { describe, expect, it } from "vitest";
import type { ManuscriptMember, TextDoc } from "../../api/composites";
import { addMembers, isEmptyText, moveMember, placedMembers, unplacedMembers, withoutMembers } from "./composite-logic";

const member = (storyId: string, type = "photo"): ManuscriptMember => ({
  storyId,
  libraryId: "product",
  type,
  title: storyId,
  thumbnailUrl: null,
});

const doc: TextDoc = {
  type: "doc",
  content: [
    { type: "heading", attrs: { level: 2 }, content: [{ type: "text", text: "台风过境" }] },
    { type: "member", attrs: { storyId: "b" } },
    { type: "paragraph", content: [{ type: "text", text: "码头", marks: [{ type: "bold" }] }] },
    { type: "blockquote", content: [{ type: "member", attrs: { storyId: "a" } }] },
    { type: "member", attrs: { storyId: "b" } },
  ],
};

describe("a composite's text and members", () => {
  it("finds the members the text places, in reading order, each once", () => {
    expect(placedMembers(doc)).toEqual(["b", "a"]);
    expect(placedMembers(null)).toEqual([]);
  });

  it("takes the nodes of removed members out of the text, at any depth", () => {
    const pruned = withoutMembers(doc, new Set(["a"]));
    expect(placedMembers(pruned)).toEqual(["a"]);
    expect(pruned.content).toHaveLength(3);
    expect(pruned.content?.[0]).toEqual(doc.content?.[0]);
  });

  it("saves an empty editor as no text", () => {
    expect(isEmptyText({ type: "doc", content: [{ type: "paragraph" }] })).toBe(true);
    expect(isEmptyText({ type: "doc", content: [{ type: "paragraph", content: [{ type: "text", text: " " }] }] })).toBe(
      true,
    );
    expect(isEmptyText({ type: "doc", content: [{ type: "member", attrs: { storyId: "a" } }] })).toBe(false);
    expect(isEmptyText({ type: "doc", content: [{ type: "horizontalRule" }] })).toBe(false);
    expect(isEmptyText(doc)).toBe(false);
  });

  it("lists the members the text does not place, in the composite's order", () => {
    const members = [member("a"), member("b"), member("c"), member("d")];
    expect(
      unplacedMembers(
        [
          { kind: "html", html: "<p>x</p>" },
          { kind: "member", storyId: "c" },
          { kind: "member", storyId: "a" },
        ],
        members,
      ).map((m) => m.storyId),
    ).toEqual(["b", "d"]);
  });

  it("moves a dragged member to where it was dropped", () => {
    const members = [member("a"), member("b"), member("c")];
    expect(moveMember(members, "c", "a").map((m) => m.storyId)).toEqual(["c", "a", "b"]);
    expect(moveMember(members, "a", "c").map((m) => m.storyId)).toEqual(["b", "c", "a"]);
    expect(moveMember(members, "a", "x").map((m) => m.storyId)).toEqual(["a", "b", "c"]);
  });

  it("adds members once, after the others, and never a composite", () => {
    expect(
      addMembers([member("a")], [member("a"), member("b"), member("b"), member("k", "composite")]).map(
        (m) => m.storyId,
      ),
    ).toEqual(["a", "b"]);
  });
});
