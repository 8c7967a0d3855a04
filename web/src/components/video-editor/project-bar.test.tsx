// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act } from "react";
import { createRoot } from "react-dom/client";
import { I18nextProvider } from "react-i18next";
import { afterEach, describe, expect, it } from "vitest";
import { createI18n } from "../../locales/both-languages";
import { stubMatchMedia } from "../../test-support";
import { ProjectBar } from "./project-bar";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

stubMatchMedia();

let container: HTMLDivElement;
afterEach(() => container?.remove());

function render(language: "zh-CN" | "en-US", at: Date) {
  container = document.createElement("div");
  document.body.append(container);
  const root = createRoot(container);
  // The saved projects' list is not asked for here (the query never runs).
  const client = new QueryClient({ defaultOptions: { queries: { enabled: false, retry: false } } });
  act(() =>
    root.render(
      <I18nextProvider i18n={createI18n(language)}>
        <QueryClientProvider client={client}>
          <ProjectBar status={{ state: "saved", at }} projectId="p1" />
        </QueryClientProvider>
      </I18nextProvider>,
    ),
  );
  return root;
}

describe("ProjectBar", () => {
  // Nine in the evening, local time.
  const at = new Date(2026, 10, 26, 21, 9, 47);

  it("shows the autosave's time in the app's language, not the browser's", () => {
    const root = render("zh-CN", at);
    const text = container.querySelector('[data-testid="video-project-state"]')?.textContent ?? "";
    expect(text).toContain(`已保存 ${at.toLocaleTimeString("zh-CN")}`);
    expect(text).toContain("21:09:47");
    expect(text).not.toMatch(/PM/);
    act(() => root.unmount());
  });

  it("in English, the English time", () => {
    const root = render("en-US", at);
    const text = container.querySelector('[data-testid="video-project-state"]')?.textContent ?? "";
    expect(text).toContain(`Saved ${at.toLocaleTimeString("en-US")}`);
    expect(text).toContain("9:09:47");
    act(() => root.unmount());
  });
});
