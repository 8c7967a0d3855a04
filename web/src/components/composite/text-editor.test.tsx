// @vitest-environment jsdom
import { Editor } from "@tiptap/core";
import { act } from "react";
import { createRoot, type Root } from "react-dom/client";
import { I18nextProvider } from "react-i18next";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { TextDoc } from "../../api/composites";
import { createI18n } from "../../locales/both-languages";
import { stubMatchMedia, stubTextLayout, until } from "../../test-support";
import { placedMembers } from "./composite-logic";
import { photoMember } from "./test-members";
import { TextEditor, textExtensions } from "./text-editor";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

beforeAll(() => {
  stubMatchMedia();
  stubTextLayout();
});

const member = (storyId: string, title: string) => photoMember(storyId, title, `/thumbs/${storyId}.webp`);

const manuscript: TextDoc = {
  type: "doc",
  content: [
    { type: "heading", attrs: { level: 2 }, content: [{ type: "text", text: "台风过境" }] },
    {
      type: "paragraph",
      content: [
        { type: "text", text: "码头", marks: [{ type: "bold" }] },
        { type: "text", text: " 与 " },
        { type: "text", text: "链接", marks: [{ type: "link", attrs: { href: "https://example.org" } }] },
      ],
    },
    { type: "member", attrs: { storyId: "m1" } },
    {
      type: "bulletList",
      content: [{ type: "listItem", content: [{ type: "paragraph", content: [{ type: "text", text: "一" }] }] }],
    },
    {
      type: "blockquote",
      content: [
        {
          type: "paragraph",
          content: [{ type: "text", text: "引", marks: [{ type: "underline" }, { type: "strike" }] }],
        },
      ],
    },
    { type: "horizontalRule" },
  ],
};

describe("the text's schema (the server's whitelist)", () => {
  it("keeps headings, marks, lists, quotes, rules, links and member blocks as they are", () => {
    const editor = new Editor({ extensions: textExtensions(), content: manuscript });
    const json = editor.getJSON() as TextDoc;
    expect(placedMembers(json)).toEqual(["m1"]);
    expect(json.content?.map((node) => node.type)).toEqual([
      "heading",
      "paragraph",
      "member",
      "bulletList",
      "blockquote",
      "horizontalRule",
    ]);
    expect(editor.getHTML()).toContain('<figure data-story-id="m1" data-member="">');
    expect(editor.getHTML()).toContain('href="https://example.org"');
    editor.destroy();
  });

  it("has no code blocks and no headings below level 4 (the server would drop them)", () => {
    const editor = new Editor({ extensions: textExtensions(), content: "<pre><code>x</code></pre><h5>five</h5>" });
    const types = (editor.getJSON() as TextDoc).content?.map((node) => node.type);
    expect(types).not.toContain("codeBlock");
    expect(editor.getHTML()).not.toContain("<h5");
    editor.destroy();
  });
});

let container: HTMLDivElement | undefined;
let root: Root | undefined;
afterEach(() => {
  act(() => root?.unmount());
  container?.remove();
  root = undefined;
  container = undefined;
});

async function render(element: React.ReactNode) {
  container = document.createElement("div");
  document.body.append(container);
  const created = createRoot(container);
  root = created;
  await act(async () => {
    created.render(<I18nextProvider i18n={createI18n("en-US")}>{element}</I18nextProvider>);
  });
}

const rerender = (element: React.ReactNode) =>
  act(async () => root?.render(<I18nextProvider i18n={createI18n("en-US")}>{element}</I18nextProvider>));

describe("the composite's text editor", { timeout: 60_000 }, () => {
  it("shows a placed member as its thumbnail and title", async () => {
    await render(<TextEditor initial={manuscript} members={[member("m1", "港口清晨")]} onChange={() => {}} />);
    await until(() => document.querySelector("[data-testid=text-member]") !== null);
    const placed = document.querySelector<HTMLElement>("[data-testid=text-member]")!;
    expect(placed.dataset.storyId).toBe("m1");
    expect(placed.textContent).toContain("港口清晨");
    expect(placed.querySelector("img")?.getAttribute("src")).toBe("/thumbs/m1.webp");
  });

  it("places a member from the toolbar's menu at the cursor", async () => {
    const onChange = vi.fn();
    const members = [member("m1", "港口清晨"), member("m2", "台风")];
    await render(<TextEditor initial={null} members={members} onChange={onChange} />);
    await until(() => document.querySelector("[data-testid=text-insert-member]") !== null);
    await act(async () => document.querySelector<HTMLElement>("[data-testid=text-insert-member]")!.click());
    await until(() => [...document.querySelectorAll(".ant-dropdown-menu-item")].length === 2);
    const item = [...document.querySelectorAll<HTMLElement>(".ant-dropdown-menu-item")].find((node) =>
      node.textContent?.includes("台风"),
    )!;
    await act(async () => item.click());
    await until(() => onChange.mock.calls.length > 0);
    expect(placedMembers(onChange.mock.lastCall![0])).toEqual(["m2"]);
  });

  it("takes a member out of the text when it leaves the composite", async () => {
    const onChange = vi.fn();
    const both = [member("m1", "港口清晨"), member("m2", "台风")];
    const doc: TextDoc = {
      type: "doc",
      content: [
        { type: "paragraph", content: [{ type: "text", text: "正文" }] },
        { type: "member", attrs: { storyId: "m1" } },
        { type: "member", attrs: { storyId: "m2" } },
      ],
    };
    await render(<TextEditor initial={doc} members={both} onChange={onChange} />);
    await until(() => document.querySelectorAll("[data-testid=text-member]").length === 2);
    await rerender(<TextEditor initial={doc} members={[both[1]!]} onChange={onChange} />);
    await until(() => onChange.mock.calls.length > 0);
    expect(placedMembers(onChange.mock.lastCall![0])).toEqual(["m2"]);
    expect(document.querySelectorAll("[data-testid=text-member]")).toHaveLength(1);
  });

  it("saves an emptied text as null", async () => {
    const onChange = vi.fn();
    const doc: TextDoc = { type: "doc", content: [{ type: "member", attrs: { storyId: "m1" } }] };
    await render(<TextEditor initial={doc} members={[member("m1", "x")]} onChange={onChange} />);
    await until(() => document.querySelector("[data-testid=text-member]") !== null);
    await rerender(<TextEditor initial={doc} members={[]} onChange={onChange} />);
    await until(() => onChange.mock.calls.length > 0);
    expect(onChange.mock.lastCall![0]).toBeNull();
  });
});
