// @vitest-environment jsdom
import { act } from "react";
import { createRoot } from "react-dom/client";
import { I18nextProvider } from "react-i18next";
import { MemoryRouter, Route, Routes } from "react-router-dom";
import { afterEach, describe, expect, it } from "vitest";
import { createI18n } from "../locales/both-languages";
import { stubMatchMedia } from "../test-support";
import { ExceptionResult } from "./exception-result";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

stubMatchMedia();

let container: HTMLDivElement;
afterEach(() => container?.remove());

function render(status: 403 | 404 | 500) {
  container = document.createElement("div");
  document.body.append(container);
  const root = createRoot(container);
  act(() =>
    root.render(
      <I18nextProvider i18n={createI18n("en-US")}>
        <MemoryRouter initialEntries={["/here"]}>
          <Routes>
            <Route path="/here" element={<ExceptionResult status={status} />} />
            <Route path="/frontend" element={<p>front area</p>} />
          </Routes>
        </MemoryRouter>
      </I18nextProvider>,
    ),
  );
  return root;
}

describe("ExceptionResult", () => {
  it.each([
    [403, "Sorry, you have no access to this page"],
    [404, "Sorry, the page does not exist or is still in development"],
    [500, "Sorry, server error"],
  ] as const)("%i shows its text", (status, text) => {
    const root = render(status);
    expect(container.textContent).toContain(text);
    act(() => root.unmount());
  });

  it("goes back to /frontend", () => {
    const root = render(404);
    const button = container.querySelector("button");
    expect(button?.textContent).toContain("Back to home");
    act(() => button?.click());
    expect(container.textContent).toContain("front area");
    act(() => root.unmount());
  });
});
