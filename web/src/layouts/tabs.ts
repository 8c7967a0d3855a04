/**
 * The multi-tab bar as a pure reducer. A tab is a visited route, keyed by its
 * full path (pathname + search) so /frontend/search?fulltext=a and ?fulltext=b
 * are separate tabs.
 */

/**
 * Query parameters that change what a page shows over itself, not which page
 * it is: the story viewer drawer (`story`) and the grid/list switch (`view`).
 */
const VIEW_STATE_PARAMS = ["story", "view"];

/** The tab a location belongs to: its path and query, less the view-state parameters. */
export function tabKeyOf(pathname: string, search: string): string {
  const params = new URLSearchParams(search);
  for (const name of VIEW_STATE_PARAMS) params.delete(name);
  const query = params.toString();
  return query ? `${pathname}?${query}` : pathname;
}

export interface Tab {
  key: string;
  title: string;
}

/**
 * Pages that keep one tab whatever their query: a new search replaces the
 * search tab instead of opening another (16 identical 检索 tabs after a
 * morning's work, issue 15); the tab's label shows the query.
 */
const ONE_TAB_PATHS = new Set(["/frontend/search"]);

const pathOf = (key: string) => key.split("?")[0] ?? key;

/** What a tab's label adds to its page title: a search tab's query (full text or keyword), else nothing. */
export function tabDetail(key: string): string | null {
  if (!ONE_TAB_PATHS.has(pathOf(key))) return null;
  const params = new URLSearchParams(key.includes("?") ? key.slice(key.indexOf("?") + 1) : "");
  return params.get("fulltext")?.trim() || params.get("keyword")?.trim() || null;
}

export interface TabsState {
  tabs: Tab[];
  activeKey: string | null;
}

export type TabsAction =
  | { type: "open"; tab: Tab }
  | { type: "close"; key: string; home: string }
  | { type: "closeLeft"; key: string }
  | { type: "closeRight"; key: string }
  | { type: "closeAll"; home: string };

/** What the bar must do after an action: go to a path and/or show a message key. */
export interface TabsEffect {
  navigate?: string;
  message?: "layout.tabs.noLeft" | "layout.tabs.noRight";
}

export interface TabsResult {
  state: TabsState;
  effect: TabsEffect;
}

export const emptyTabs: TabsState = { tabs: [], activeKey: null };

export function reduceTabs(state: TabsState, action: TabsAction): TabsResult {
  switch (action.type) {
    case "open": {
      let index = state.tabs.findIndex((tab) => tab.key === action.tab.key);
      if (index === -1 && ONE_TAB_PATHS.has(pathOf(action.tab.key))) {
        const path = pathOf(action.tab.key);
        index = state.tabs.findIndex((tab) => pathOf(tab.key) === path);
        if (index !== -1) {
          const tabs = state.tabs.map((tab, i) => (i === index ? action.tab : tab));
          return { state: { tabs, activeKey: action.tab.key }, effect: {} };
        }
      }
      const tabs =
        index === -1
          ? [...state.tabs, action.tab]
          : state.tabs.map((tab, i) => (i === index ? { ...tab, title: action.tab.title } : tab));
      return { state: { tabs, activeKey: action.tab.key }, effect: {} };
    }
    case "close": {
      const index = state.tabs.findIndex((tab) => tab.key === action.key);
      if (index === -1) return { state, effect: {} };
      const tabs = state.tabs.filter((tab) => tab.key !== action.key);
      if (state.activeKey !== action.key) return { state: { ...state, tabs }, effect: {} };
      const neighbour = tabs[index] ?? tabs[index - 1];
      if (!neighbour) return { state: { tabs: [], activeKey: null }, effect: { navigate: action.home } };
      return { state: { tabs, activeKey: neighbour.key }, effect: { navigate: neighbour.key } };
    }
    case "closeLeft":
    case "closeRight": {
      const index = state.tabs.findIndex((tab) => tab.key === action.key);
      if (index === -1) return { state, effect: {} };
      const left = action.type === "closeLeft";
      const removed = left ? state.tabs.slice(0, index) : state.tabs.slice(index + 1);
      if (removed.length === 0) {
        return { state, effect: { message: left ? "layout.tabs.noLeft" : "layout.tabs.noRight" } };
      }
      const tabs = left ? state.tabs.slice(index) : state.tabs.slice(0, index + 1);
      const activeStays = tabs.some((tab) => tab.key === state.activeKey);
      if (activeStays) return { state: { ...state, tabs }, effect: {} };
      return { state: { tabs, activeKey: action.key }, effect: { navigate: action.key } };
    }
    case "closeAll":
      return { state: { tabs: [], activeKey: null }, effect: { navigate: action.home } };
  }
}

const TABS_STORAGE_KEY = "pro__Multi-Tabs";

/** Tabs survive a reload of the browser tab (sessionStorage), per area. */
export function loadTabs(area: string, storage: Pick<Storage, "getItem"> | undefined): TabsState {
  try {
    const raw = storage?.getItem(`${TABS_STORAGE_KEY}:${area}`);
    if (!raw) return emptyTabs;
    const parsed = JSON.parse(raw) as Partial<TabsState>;
    if (!Array.isArray(parsed.tabs)) return emptyTabs;
    const tabs = parsed.tabs.filter(
      (tab): tab is Tab => typeof tab?.key === "string" && typeof tab?.title === "string",
    );
    const activeKey = tabs.some((tab) => tab.key === parsed.activeKey) ? (parsed.activeKey ?? null) : null;
    return { tabs, activeKey };
  } catch {
    return emptyTabs;
  }
}

export function saveTabs(area: string, state: TabsState, storage: Pick<Storage, "setItem"> | undefined): void {
  storage?.setItem(`${TABS_STORAGE_KEY}:${area}`, JSON.stringify(state));
}
