// @vitest-environment jsdom
import { act } from "react";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { Story } from "../../api/stories";

interface Put {
  ifMatch: string | null;
  body: Record<string, unknown>;
}

// The server, through the real typed client: the edit route answers in turn from `edits`; every read answers empty.
const puts: Put[] = [];
const edits: { status: number; body: object }[] = [];
vi.stubGlobal("fetch", async (request: Request) => {
  const url = new URL(request.url);
  if (request.method === "PUT" && url.pathname.startsWith("/dams/api/v1/workflow-story-edit/photo/")) {
    puts.push({ ifMatch: request.headers.get("if-match"), body: await request.json() });
    const answer = edits.shift()!;
    return new Response(JSON.stringify(answer.body), {
      status: answer.status,
      headers: { "content-type": "application/json" },
    });
  }
  const data = url.pathname.endsWith("/keywordhistory")
    ? { content: [], totalElements: 0 }
    : url.pathname.endsWith("/properties/locked")
      ? { locked: [] }
      : [];
  return new Response(JSON.stringify({ code: 0, msg: "ok", data }), {
    headers: { "content-type": "application/json" },
  });
});

import { renderInApp as render } from "../../test-render";
import { stubMatchMedia, until } from "../../test-support";
import { EditInfoDialog } from "./edit-info-dialog";

beforeAll(() => {
  stubMatchMedia();
});

const story = (overrides: Partial<Story> = {}): Story =>
  ({
    id: "s1",
    storyId: "s1",
    libraryId: "product",
    type: "photo",
    status: "committed",
    title: "码头",
    caption: "早上的码头",
    authors: [],
    source: null,
    keywords: [],
    tags: [],
    theme: null,
    category: null,
    capturedAt: null,
    properties: {},
    revision: 4,
    ...overrides,
  }) as unknown as Story;

afterEach(() => {
  puts.length = 0;
  edits.length = 0;
});

const byTestId = (id: string) => document.body.querySelector<HTMLElement>(`[data-testid=${id}]`);
const click = (id: string) => act(async () => byTestId(id)!.click());
const captionBox = () => document.body.querySelector<HTMLTextAreaElement>("textarea#caption")!;

async function typeCaption(text: string) {
  await until(() => captionBox() !== null);
  await act(async () => {
    const setter = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, "value")!.set!;
    setter.call(captionBox(), text);
    captionBox().dispatchEvent(new Event("input", { bubbles: true }));
  });
}

const stale = (current: Story) => ({
  status: 409,
  body: { code: 409, msg: "the story was changed by someone else", error: "stale_revision", data: current },
});

describe("the edit-information dialog on a concurrent edit (409)", { timeout: 120_000 }, () => {
  it("shows the other person's values and overwrites deliberately, based on their revision", async () => {
    const theirs = story({ title: "同事的标题", revision: 5 });
    edits.push(stale(theirs), { status: 200, body: { code: 0, msg: "ok", data: { ...theirs, revision: 6 } } });
    const onClose = vi.fn();
    await render(<EditInfoDialog story={story()} onClose={onClose} />);
    await typeCaption("傍晚的码头");
    await click("edit-info-save");

    await until(() => byTestId("edit-info-conflict") !== null);
    expect(puts[0]).toEqual({ ifMatch: '"4"', body: { caption: "傍晚的码头" } });
    expect(byTestId("edit-info-conflict")!.textContent).toContain("同事的标题");
    expect(onClose).not.toHaveBeenCalled();

    await click("edit-info-overwrite");
    await until(() => onClose.mock.calls.length === 1);
    expect(puts[1]).toEqual({ ifMatch: '"5"', body: { caption: "傍晚的码头" } });
  });

  it("reloads their values into the form, and saves based on their revision", async () => {
    const theirs = story({ caption: "同事写的说明", revision: 5 });
    edits.push(stale(theirs));
    const onClose = vi.fn();
    await render(<EditInfoDialog story={story()} onClose={onClose} />);
    await typeCaption("我的说明");
    await click("edit-info-save");
    await until(() => byTestId("edit-info-conflict") !== null);

    await click("edit-info-reload");
    await until(() => byTestId("edit-info-conflict") === null);
    expect(captionBox().value).toBe("同事写的说明");
    edits.push({
      status: 200,
      body: { code: 0, msg: "ok", data: { ...theirs, caption: "同事写的说明。补充", revision: 6 } },
    });
    await typeCaption("同事写的说明。补充");
    await click("edit-info-save");
    await until(() => onClose.mock.calls.length === 1);
    expect(puts[1]).toEqual({ ifMatch: '"5"', body: { caption: "同事写的说明。补充" } });
  });

  it("closes without a call when nothing was changed", async () => {
    const onClose = vi.fn();
    await render(<EditInfoDialog story={story()} onClose={onClose} />);
    await until(() => captionBox() !== null);
    await click("edit-info-save");
    await until(() => onClose.mock.calls.length === 1);
    expect(puts).toHaveLength(0);
  });
});
