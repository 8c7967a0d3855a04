// @vitest-environment jsdom
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { Delivery } from "../../api/publishing";
import { createI18n } from "../../locales/both-languages";
import { monitorStrings } from "../../locales/monitor";
import { StoryPublications } from "./story-publications";

// The server's answer to the story's deliveries route, through the real typed client.
let answer: { embargoUntil: string | null; deliveries: Delivery[] } = { embargoUntil: null, deliveries: [] };
const asked: string[] = [];
vi.stubGlobal("fetch", async (request: Request) => {
  asked.push(new URL(request.url).pathname);
  return new Response(JSON.stringify({ code: 0, msg: "ok", data: answer }), {
    headers: { "content-type": "application/json" },
  });
});

import { renderInApp } from "../../test-render";
import { stubMatchMedia, until } from "../../test-support";

beforeAll(() => {
  stubMatchMedia();
});

const delivery = (overrides: Partial<Delivery>): Delivery => ({
  id: "d1",
  channelId: "c1",
  channelName: "网站 HTTP",
  libraryId: "product",
  storyId: "s1",
  storyTitle: "台风",
  versionNo: 1,
  action: "publish",
  state: "succeeded",
  attempts: 1,
  lastError: null,
  jobId: null,
  notBefore: null,
  startedAt: "2026-11-26T10:00:00Z",
  finishedAt: "2026-11-26T10:00:02Z",
  durationMs: 2000,
  createdBy: null,
  createdAt: "2026-11-26T10:00:00Z",
  updatedAt: "2026-11-26T10:00:02Z",
  ...overrides,
});

let container: HTMLDivElement;
afterEach(() => {
  asked.length = 0;
});

async function render(language: "zh-CN" | "en-US") {
  const i18n = createI18n(language);
  // The tab's chunk adds the monitor's strings to the app's instance; this test's has them added the same way.
  i18n.addResourceBundle(language, "translation", monitorStrings[language], true, false);
  container = await renderInApp(<StoryPublications libraryId="product" storyId="s1" />, { i18n });
}

describe("the viewer's 发布记录 tab", () => {
  it("lists each delivery with its channel, state, a withdrawal's mark, attempts and last error", async () => {
    answer = {
      embargoUntil: null,
      deliveries: [
        delivery({ id: "k1", action: "kill", channelName: "通讯社 SFTP", channelId: "c2" }),
        delivery({ id: "d2", state: "failed", attempts: 5, lastError: "sftp.example.com:22 refused the login" }),
        delivery({ id: "d3", channelName: "通讯社 SFTP", channelId: "c2", attempts: 3 }),
      ],
    };
    await render("zh-CN");
    await until(() => container.querySelectorAll("[data-testid=publication-state]").length === 3);
    expect(asked[0]).toBe("/dams/api/v1/publishing/product/s1/deliveries");
    const rows = [...container.querySelectorAll("tbody tr.ant-table-row")].map((row) => row.textContent);
    expect(rows[0]).toContain("通讯社 SFTP");
    expect(rows[0]).toContain("已成功");
    expect(rows[0]).toContain("撤稿");
    expect(rows[1]).toContain("已失败");
    expect(rows[1]).toContain("sftp.example.com:22 refused the login");
    expect(rows[1]).toContain("5");
    expect(rows[2]).not.toContain("撤稿");
  });

  it("says when a held delivery will be sent and that the story is embargoed; English too", async () => {
    const later = "2099-01-01T18:00:00Z";
    answer = {
      embargoUntil: later,
      deliveries: [delivery({ state: "pending", notBefore: later, finishedAt: null, attempts: 0 })],
    };
    await render("en-US");
    await until(() => container.querySelector("[data-testid=publication-not-before]") !== null);
    expect(container.querySelector("[data-testid=publication-state]")?.textContent).toBe("Pending");
    expect(container.querySelector("[data-testid=publication-not-before]")?.textContent).toMatch(/^sends at 2099-01-0/);
    expect(container.querySelector("[data-testid=publication-embargo]")?.textContent).toContain("Embargoed until");
  });

  it("an unpublished story: says so", async () => {
    answer = { embargoUntil: null, deliveries: [] };
    await render("zh-CN");
    await until(() => container.textContent?.includes("尚未发往任何渠道") ?? false);
    expect(container.textContent).toContain("尚未发往任何渠道。");
  });
});
