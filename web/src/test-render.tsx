/**
 * Rendering a component for a test as the app shows it: in a query client and an i18n instance of its
 * own. What a test renders is unmounted and removed after it (the afterEach below).
 */
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import type { i18n as I18n } from "i18next";
import { act, type ReactNode } from "react";
import { createRoot, type Root } from "react-dom/client";
import { I18nextProvider } from "react-i18next";
import { afterEach } from "vitest";
import type { Language } from "./locales";
import { createI18n } from "./locales/both-languages";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const mounted: { root: Root; container: HTMLElement }[] = [];

afterEach(() => {
  for (const { root, container } of mounted.splice(0)) {
    act(() => root.unmount());
    container.remove();
  }
});

/**
 * Renders `element` into a new container in the document and returns the container. `client`: a fresh query
 * client unless given; `i18n`: a language (en-US unless given) or an instance of the test's own.
 */
export async function renderInApp(
  element: ReactNode,
  { client = new QueryClient(), i18n = "en-US" }: { client?: QueryClient; i18n?: Language | I18n } = {},
): Promise<HTMLDivElement> {
  const container = document.createElement("div");
  document.body.append(container);
  const root = createRoot(container);
  mounted.push({ root, container });
  await act(async () => {
    root.render(
      <QueryClientProvider client={client}>
        <I18nextProvider i18n={typeof i18n === "string" ? createI18n(i18n) : i18n}>{element}</I18nextProvider>
      </QueryClientProvider>,
    );
  });
  return container;
}
