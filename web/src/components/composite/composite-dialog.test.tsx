// @vitest-environment jsdom
import { act } from "react";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { CompositeText } from "../../api/composites";
import type { Story } from "../../api/stories";

interface Sent {
  method: string;
  path: string;
  ifMatch: string | null;
  body: Record<string, unknown> | null;
}

// The server, through the real client: writes are recorded and answered in turn from `answers`; reads answer from `reads`.
const sent: Sent[] = [];
const answers: { status: number; body: object }[] = [];
const reads = new Map<string, unknown>();
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
vi.stubGlobal("fetch", async (request: Request) => {
  const url = new URL(request.url);
  const path = url.pathname.replace("/dams/api/v1", "");
  if (request.method !== "GET") {
    const text = await request.text();
    sent.push({
      method: request.method,
      path,
      ifMatch: request.headers.get("if-match"),
      body: text ? JSON.parse(text) : null,
    });
    const answer = answers.shift()!;
    return json(answer.body, answer.status);
  }
  if (reads.has(path)) return json({ code: 0, msg: "ok", data: reads.get(path) });
  return json({ code: 0, msg: "ok", data: path.endsWith("/keywordhistory") ? { content: [], totalElements: 0 } : [] });
});

import { renderInApp as render } from "../../test-render";
import { stubMatchMedia, stubTextLayout, until } from "../../test-support";
import { CompositeDialog } from "./composite-dialog";
import { photoMember as member } from "./test-members";

beforeAll(() => {
  stubMatchMedia();
  stubTextLayout();
});

const M1 = "11111111-1111-4111-8111-111111111111";
const M2 = "22222222-2222-4222-8222-222222222222";

const composite = (overrides: Partial<Story> = {}): Story =>
  ({
    storyId: "c1",
    libraryId: "product",
    type: "composite",
    status: "draft",
    title: "台风过境",
    caption: "",
    authors: [],
    keywords: [],
    tags: [],
    properties: {},
    members: [M1, M2],
    revision: 4,
    coverMediaUrl: null,
    ...overrides,
  }) as unknown as Story;
const ok = (data: unknown) => ({ status: 200, body: { code: 0, msg: "ok", data } });

afterEach(() => {
  sent.length = 0;
  answers.length = 0;
  reads.clear();
});

const q = <T extends HTMLElement>(selector: string) => document.body.querySelector<T>(selector);
const click = (selector: string) => act(async () => q(selector)!.click());
async function typeTitle(text: string) {
  await until(() => q("[data-testid=composite-title]") !== null);
  await act(async () => {
    const input = q<HTMLInputElement>("[data-testid=composite-title]")!;
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")!.set!.call(input, text);
    input.dispatchEvent(new Event("input", { bubbles: true }));
  });
}

describe("the 组图 dialog", { timeout: 120_000 }, () => {
  it("creates a composite of the selection, sets the chosen member as cover, and commits it", async () => {
    reads.set("/libraries", [{ id: "product", name: "成品库", level: "write" }]);
    const made = composite({ revision: 1 });
    answers.push(ok(made), ok({ ...made, revision: 2 }), ok({ committed: 1 }));
    const onClose = vi.fn();
    await render(
      <CompositeDialog
        target={{ kind: "create", libraryId: "product", members: [member(M1, "港口"), member(M2, "台风")] }}
        onClose={onClose}
      />,
    );
    await typeTitle("台风过境");
    await until(() => document.querySelectorAll("[data-testid=composite-member]").length === 2);
    const secondCover = document.querySelectorAll<HTMLElement>("[data-testid=composite-member] input[type=radio]")[1]!;
    await act(async () => secondCover.click());
    await click("[data-testid=composite-commit]");
    await until(() => onClose.mock.calls.length === 1);

    expect(sent.map((call) => `${call.method} ${call.path}`)).toEqual([
      "POST /workflow-story-create/composite",
      "PUT /workflow-story-edit/composite/c1",
      "POST /workflow-story-create/composite/commit",
    ]);
    expect(sent[0]!.body).toMatchObject({
      libraryId: "product",
      title: "台风过境",
      members: [
        { libraryId: "product", storyId: M1 },
        { libraryId: "product", storyId: M2 },
      ],
      text: null,
    });
    expect(sent[1]).toMatchObject({ ifMatch: '"1"', body: { coverFrom: { storyId: M2, role: "preview" } } });
    expect(sent[2]!.body).toEqual({ libraryId: "product", storyIds: ["c1"] });
  });

  it("edits based on the revision it opened (If-Match), and on a 409 overwrites based on theirs", async () => {
    const text: CompositeText = {
      doc: {
        type: "doc",
        content: [
          { type: "paragraph", content: [{ type: "text", text: "正文" }] },
          { type: "member", attrs: { storyId: M1 } },
        ],
      },
      html: "<p>正文</p>",
      parts: [
        { kind: "html", html: "<p>正文</p>" },
        { kind: "member", storyId: M1 },
      ],
      members: [member(M1, "港口"), member(M2, "台风")],
    };
    reads.set("/stories/product/c1/text", text);
    const theirs = composite({ title: "同事的标题", revision: 5 });
    answers.push(
      { status: 409, body: { code: 409, msg: "changed", error: "stale_revision", data: theirs } },
      ok({ ...theirs, revision: 6 }),
    );
    const onClose = vi.fn();
    await render(<CompositeDialog target={{ kind: "edit", story: composite() }} onClose={onClose} />);
    await until(() => document.querySelectorAll("[data-testid=text-member]").length === 1);
    // The first member leaves the composite, and the text.
    await click("[data-testid=composite-member] [data-testid=composite-member-remove]");
    await until(() => document.querySelectorAll("[data-testid=text-member]").length === 0);
    await click("[data-testid=composite-save]");
    await until(() => q("[data-testid=composite-conflict]") !== null);
    expect(onClose).not.toHaveBeenCalled();
    expect(sent[0]).toMatchObject({
      method: "PUT",
      path: "/workflow-story-edit/composite/c1",
      ifMatch: '"4"',
      body: {
        title: "台风过境",
        members: [{ libraryId: "product", storyId: M2 }],
        text: { type: "doc", content: [{ type: "paragraph", content: [{ type: "text", text: "正文" }] }] },
      },
    });

    await click("[data-testid=composite-overwrite]");
    await until(() => onClose.mock.calls.length === 1);
    expect(sent[1]).toMatchObject({ ifMatch: '"5"', body: { members: [{ libraryId: "product", storyId: M2 }] } });
    expect(sent).toHaveLength(2);
  });
});
