// @vitest-environment jsdom
import { act } from "react";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { Story } from "../../api/stories";

// The server, through the real typed client: the batch routes answer from `answers`, in turn; other reads empty.
const calls: { method: string; path: string; body: unknown }[] = [];
const answers: Record<string, object[]> = {};
vi.stubGlobal("fetch", async (request: Request) => {
  const url = new URL(request.url);
  const key = `${request.method} ${url.pathname.replace(/[0-9a-f-]{36}/, "{id}")}${url.searchParams.get("outcome") ? `?${url.searchParams.get("outcome")}` : ""}`;
  if (url.pathname.startsWith("/dams/api/v1/story-batch-edits")) {
    calls.push({ method: request.method, path: key, body: request.method === "POST" ? await request.json() : null });
    const data = answers[key]?.shift();
    if (!data) throw new Error(`no answer for ${key}`);
    return new Response(JSON.stringify({ code: 0, msg: "ok", data }), {
      headers: { "content-type": "application/json" },
    });
  }
  const data =
    url.pathname.endsWith("/keywordhistory") || url.pathname.endsWith("/metadata-templates")
      ? { content: [], totalElements: 0 }
      : [];
  return new Response(JSON.stringify({ code: 0, msg: "ok", data }), {
    headers: { "content-type": "application/json" },
  });
});

import { renderInApp } from "../../test-render";
import { stubMatchMedia, until } from "../../test-support";
import { BatchEditDialog } from "./batch-edit-dialog";

beforeAll(() => {
  stubMatchMedia();
});

const ID = "00000000-0000-4000-8000-00000000000";
const stories = [1, 2, 3].map(
  (n) =>
    ({
      id: `${ID}${n}`,
      storyId: `${ID}${n}`,
      libraryId: "product",
      type: "photo",
      title: `码头 ${n}`,
      keywords: [],
      properties: {},
      revision: 1,
    }) as unknown as Story,
);

const BATCH = "11111111-1111-4111-8111-111111111111";
const batch = (overrides: object) => ({
  id: BATCH,
  state: "running",
  total: 3,
  done: 0,
  changed: 0,
  unchanged: 0,
  refused: 0,
  failed: 0,
  progress: 0,
  operations: [],
  error: null,
  jobId: "job",
  createdAt: "2026-01-01T00:00:00Z",
  finishedAt: null,
  ...overrides,
});

afterEach(() => {
  calls.length = 0;
});

const render = (element: React.ReactNode, language: "en-US" | "zh-CN" = "en-US") =>
  renderInApp(element, { i18n: language });

const byTestId = (id: string) => document.body.querySelector<HTMLElement>(`[data-testid=${id}]`);
const click = (id: string) => act(async () => byTestId(id)!.click());

/** Types a keyword into the first operation's values (an antd tags select) and confirms it with Enter. */
async function addKeyword(text: string) {
  const inputs = byTestId("batch-edit-operation-0")!.querySelectorAll<HTMLInputElement>(
    "input.ant-select-selection-search-input",
  );
  const input = inputs[inputs.length - 1]!;
  await act(async () => {
    input.focus();
    const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")!.set!;
    setter.call(input, text);
    input.dispatchEvent(new Event("input", { bubbles: true }));
  });
  await act(async () => {
    input.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", code: "Enter", keyCode: 13, bubbles: true }));
  });
}

describe("the batch edit-information dialog", () => {
  it("previews, applies as a job with a progress bar, and ends on the per-story summary", async () => {
    answers["POST /dams/api/v1/story-batch-edits/preview"] = [
      {
        total: 3,
        changed: 2,
        unchanged: 0,
        refused: 1,
        refusedReasons: [{ reason: "draft_of_another_user", count: 1 }],
        operations: [{ index: 0, touches: 2 }],
      },
    ];
    answers["POST /dams/api/v1/story-batch-edits"] = [batch({ state: "queued" })];
    answers["GET /dams/api/v1/story-batch-edits/{id}"] = [
      batch({ done: 2, progress: 66 }),
      batch({ state: "succeeded", done: 3, progress: 100, changed: 2, refused: 1 }),
    ];
    answers["GET /dams/api/v1/story-batch-edits/{id}/items?refused"] = [
      {
        content: [
          {
            position: 2,
            storyId: stories[2]!.storyId,
            libraryId: "product",
            title: "码头 3",
            outcome: "refused",
            reason: "draft_of_another_user",
            message: "…",
            fields: [],
          },
        ],
        totalElements: 1,
        size: 200,
        number: 0,
      },
    ];
    const onClose = vi.fn();
    await render(<BatchEditDialog stories={stories} onClose={onClose} />);
    await until(() => byTestId("batch-edit-operation-0") !== null);
    expect((byTestId("batch-edit-apply") as HTMLButtonElement).disabled).toBe(true);
    await addKeyword("台风");
    await click("batch-edit-preview");
    await until(() => byTestId("batch-edit-preview-result") !== null);
    expect(calls[0]!.body).toEqual({
      storyIds: stories.map((story) => story.storyId),
      operations: [{ op: "add", field: "keywords", values: ["台风"] }],
    });
    expect(byTestId("batch-edit-preview-result")!.textContent).toContain("2 stories will change");
    expect(byTestId("batch-edit-preview-result")!.textContent).toContain("Another user's draft × 1");
    expect(byTestId("batch-edit-touches")!.textContent).toBe("changes 2");

    await click("batch-edit-apply");
    await until(() => byTestId("batch-edit-progress") !== null);
    await until(() => byTestId("batch-edit-summary") !== null);
    expect(byTestId("batch-edit-summary")!.textContent).toContain("Changed2");
    await until(() => byTestId("batch-edit-refused") !== null);
    expect(byTestId("batch-edit-refused")!.textContent).toContain("码头 3");
    expect(byTestId("batch-edit-refused")!.textContent).toContain("Another user's draft");
    await click("batch-edit-close");
    expect(onClose).toHaveBeenCalled();
  }, 120_000);

  it("takes every story matching the grid's search: the search is sent, not ids; the preview says how many match", async () => {
    answers["POST /dams/api/v1/story-batch-edits/preview"] = [
      { total: 42, changed: 40, unchanged: 2, refused: 0, refusedReasons: [], operations: [{ index: 0, touches: 40 }] },
    ];
    const search = { query: { fulltext: "台风", types: ["photo" as const] }, total: 42 };
    await render(<BatchEditDialog stories={[]} search={search} onClose={() => {}} />);
    await until(() => byTestId("batch-edit-operation-0") !== null);
    const radios = byTestId("batch-edit-target")!.querySelectorAll<HTMLInputElement>("input[type=radio]");
    // Nothing selected: the selection is not offered, the search is chosen.
    expect([...radios].map((radio) => [radio.disabled, radio.checked])).toEqual([
      [true, false],
      [false, true],
    ]);
    expect(byTestId("batch-edit-target")!.textContent).toContain("about 42");
    await addKeyword("台风");
    await click("batch-edit-preview");
    await until(() => byTestId("batch-edit-preview-result") !== null);
    expect(calls[0]!.body).toEqual({
      search: { fulltext: "台风", types: ["photo"] },
      operations: [{ op: "add", field: "keywords", values: ["台风"] }],
    });
    expect(byTestId("batch-edit-preview-result")!.textContent).toContain("The search matches 42 stories now");
    expect(document.body.textContent).toContain("Edit information of 42 stories");
  }, 120_000);

  it("speaks Chinese", async () => {
    await render(<BatchEditDialog stories={stories} onClose={() => {}} />, "zh-CN");
    await until(() => byTestId("batch-edit-dialog") !== null);
    expect(document.body.textContent).toContain("批量编辑信息（3 个稿件）");
    expect(document.body.textContent).toContain("追加");
  }, 60_000);
});
