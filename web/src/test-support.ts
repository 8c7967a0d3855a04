import { act } from "react";
import { expect } from "vitest";
/** An in-memory Storage for tests of modules that persist to localStorage/sessionStorage. */
export function memoryStorage(initial: Record<string, string> = {}): Storage {
  const data = new Map(Object.entries(initial));
  return {
    get length() {
      return data.size;
    },
    clear: () => data.clear(),
    getItem: (key) => data.get(key) ?? null,
    key: (index) => [...data.keys()][index] ?? null,
    removeItem: (key) => {
      data.delete(key);
    },
    setItem: (key, value) => {
      data.set(key, String(value));
    },
  };
}

/** jsdom has no `matchMedia` (antd's responsive hooks call it): every query answers "no match". */
export function stubMatchMedia(): void {
  Object.defineProperty(window, "matchMedia", {
    writable: true,
    value: (query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addListener() {},
      removeListener() {},
      addEventListener() {},
      removeEventListener() {},
      dispatchEvent: () => false,
    }),
  });
}

/** ProseMirror (the TipTap editors) asks for text layout jsdom does not do, to scroll the selection into view. */
export function stubTextLayout(): void {
  Range.prototype.getClientRects = () => [] as unknown as DOMRectList;
  Range.prototype.getBoundingClientRect = () => new DOMRect();
  document.elementFromPoint = () => null;
}

/** jsdom lays nothing out: every element gets the size of a desktop viewport, and ResizeObserver does nothing. */
export function stubDesktopLayout(): void {
  Object.defineProperty(HTMLElement.prototype, "clientWidth", { configurable: true, get: () => 1000 });
  Object.defineProperty(HTMLElement.prototype, "clientHeight", { configurable: true, get: () => 800 });
  globalThis.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
}

/**
 * Waits, in React's act() steps of 20 ms, until `check` holds, then asserts it. Bounded by time (30 s), not
 * by a count of steps: on a busy machine (CI shares two cores with the server suite) a render can take
 * seconds, and the test still goes on as soon as the condition holds.
 */
export async function until(check: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check() && Date.now() < deadline) await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
  expect(check()).toBe(true);
}

/** A module's strings (a chunk's own, apart from the language packs): the same keys in zh-CN and en-US, none empty. */
export function expectBothLanguagesComplete(strings: Record<"zh-CN" | "en-US", Record<string, string>>): void {
  expect(Object.keys(strings["zh-CN"]).sort()).toEqual(Object.keys(strings["en-US"]).sort());
  for (const language of Object.values(strings))
    for (const [key, value] of Object.entries(language)) expect(value.trim(), key).not.toBe("");
}
