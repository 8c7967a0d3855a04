// @vitest-environment jsdom
import { act } from "react";
import { createRoot } from "react-dom/client";
import { I18nextProvider } from "react-i18next";
import { afterEach, describe, expect, it } from "vitest";
import type { ShareVisit } from "../../api/shares";
import { createI18n } from "../../locales/both-languages";
import { stubMatchMedia } from "../../test-support";
import { ShareVisitList } from "./share-visits";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

stubMatchMedia();

let container: HTMLDivElement;
afterEach(() => container?.remove());

const visits: ShareVisit[] = [
  {
    id: 3,
    at: "2026-11-20T08:30:05.000Z",
    address: "203.0.113.7",
    action: "download",
    storyId: "a0b1c2d3-0000-4000-8000-000000000001",
    visitorName: null,
    storyTitle: "台风山竹",
    userAgent: "Mozilla/5.0 (iPhone)",
  },
  {
    id: 2,
    at: "2026-11-20T08:30:00.000Z",
    address: "203.0.113.7",
    action: "view",
    storyId: "a0b1c2d3-0000-4000-8000-000000000002",
    visitorName: null,
    storyTitle: null,
    userAgent: null,
  },
  {
    id: 1,
    at: "2026-11-20T08:29:00.000Z",
    address: null,
    action: "wrong-password",
    storyId: null,
    visitorName: null,
    storyTitle: null,
    userAgent: null,
  },
];

function render(language: "en-US" | "zh-CN") {
  container = document.createElement("div");
  document.body.append(container);
  const root = createRoot(container);
  act(() =>
    root.render(
      <I18nextProvider i18n={createI18n(language)}>
        <ShareVisitList visits={visits} />
      </I18nextProvider>,
    ),
  );
  return root;
}

describe("ShareVisitList", () => {
  it("shows each visit's action, address and story, in the order given", () => {
    const root = render("en-US");
    const rows = [...container.querySelectorAll("[data-testid=share-visit]")].map((row) => row.textContent);
    expect(rows).toHaveLength(3);
    expect(rows[0]).toContain("Downloaded");
    expect(rows[0]).toContain("203.0.113.7");
    expect(rows[0]).toContain("台风山竹");
    expect(rows[0]).toContain("Mozilla/5.0 (iPhone)");
    expect(rows[1]).toContain("Viewed");
    expect(rows[1]).toContain("(a story you can no longer read)");
    expect(rows[2]).toContain("Wrong password");
    expect(rows[2]).toContain("—");
    act(() => root.unmount());
  });

  it("speaks Chinese", () => {
    const root = render("zh-CN");
    expect(container.textContent).toContain("下载");
    expect(container.textContent).toContain("密码错误");
    act(() => root.unmount());
  });
});
