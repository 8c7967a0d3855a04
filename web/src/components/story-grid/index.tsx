import { theme } from "antd";
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { Story } from "../../api/stories";
import { GridCell, type GridLabels, type GridPalette, ListRow, storyKey } from "./cells";
import { CELL_HEIGHT, cellWidth, GAP, gridColumns, LIST_ROW_HEIGHT } from "./geometry";
import { gridWindow, layerTopFor, sameWindow, spacerHeight } from "./scroll-mapping";

export type StoryGridView = "grid" | "list";

export interface StoryGridProps {
  total: number;
  /**
   * Which result the grid shows: a new one starts at the top. Without it a
   * change of the total means a new result; with it the total may change
   * under the same result (an estimate settling) and the grid stays where it is.
   */
  resultKey?: string;
  storyAt: (index: number) => Story | undefined;
  /** The items [from, to) being rendered, so their pages get loaded. */
  onRange: (from: number, to: number) => void;
  view: StoryGridView;
  selected: ReadonlySet<string>;
  onToggle: (story: Story) => void;
  /**
   * Shift-click on a checkbox: the loaded stories from the one clicked before
   * to this one (both included), all to be selected or all unselected (as the
   * clicked one turns). Without it a Shift-click toggles one story.
   */
  onToggleRange?: (stories: Story[], select: boolean) => void;
  onOpen: (story: Story) => void;
  /** The height of the scroll area (CSS). */
  height?: string;
}

export { storyKey };

/** Rows drawn beyond each edge of the viewport: at least 480 px, so a wheel step never shows an empty band. */
const OVERSCAN_PX = 480;
/** How long after the last scroll event the cells take pointer events again (ms). */
export const POINTER_PAUSE_MS = 120;

function useSize(element: HTMLElement | null): { width: number; height: number } {
  const [size, setSize] = useState({ width: 0, height: 0 });
  useLayoutEffect(() => {
    if (!element) return;
    const measure = () => setSize({ width: element.clientWidth, height: element.clientHeight });
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [element]);
  return size;
}

/**
 * The virtualized result grid (or list). Only the rows in view (plus about
 * 480 px on each side) are in the DOM. The spacer that gives the scrollbar
 * its length is capped below the browser's maximum element height and the
 * scroll position is mapped onto the rows (see scroll-mapping.ts), so
 * 100 000 results and more stay reachable down to the last one. Built by
 * hand rather than with a virtualizer library because none of them maps the
 * scroll position.
 *
 * What keeps scrolling smooth (measured with bench/grid-scroll.bench.ts):
 * React renders only when the window of rows changes, not on every scroll
 * event; below the cap the rows stay where they are in the spacer and the
 * browser scrolls them without the main thread, above it the scroll handler
 * moves one layer; cells are plain elements (no antd component, no icon
 * component, no i18n call but the title's), so a new row costs a few DOM
 * nodes.
 */
export function StoryGrid(props: StoryGridProps) {
  const {
    total,
    storyAt,
    onRange,
    view,
    selected,
    onToggle,
    onToggleRange,
    onOpen,
    resultKey,
    height = "max(360px, calc(100vh - 280px))",
  } = props;
  const { t, i18n } = useTranslation();
  const { token } = theme.useToken();
  const [container, setContainer] = useState<HTMLDivElement | null>(null);
  const layer = useRef<HTMLDivElement>(null);
  const { width, height: viewportHeight } = useSize(container);
  // The scrollTop the window was computed at; the scroll handler changes it only when the window changes.
  const [windowTop, setWindowTop] = useState(0);
  const scrollTop = useRef(0);

  const columns = view === "grid" ? gridColumns(width) : 1;
  const cardWidth = cellWidth(width, columns);
  const rowHeight = view === "grid" ? CELL_HEIGHT + GAP : LIST_ROW_HEIGHT;
  const rowCount = Math.ceil(total / columns);
  const geometry = { viewportHeight: Math.max(1, viewportHeight) };
  const overscan = Math.ceil(OVERSCAN_PX / rowHeight);
  const spacer = spacerHeight({ contentHeight: rowCount * rowHeight, ...geometry });
  const scaled = spacer < rowCount * rowHeight;
  const rows = gridWindow(windowTop, rowHeight, rowCount, geometry, overscan);

  // What the scroll handler needs, as of the last render.
  const current = useRef({ rows, rowHeight, rowCount, geometry, overscan, scaled });
  current.current = { rows, rowHeight, rowCount, geometry, overscan, scaled };

  const placeLayer = (layerTop: number) => {
    if (layer.current) layer.current.style.transform = `translateY(${layerTop}px)`;
  };
  // After every render, the layer goes where the latest scroll position puts the rendered rows.
  useLayoutEffect(() => {
    const now = current.current;
    placeLayer(layerTopFor(scrollTop.current, now.rows.base, now.rowHeight, now.rowCount, now.geometry));
  });

  useEffect(() => {
    onRange(rows.first * columns, Math.min(total, rows.last * columns));
  }, [onRange, rows.first, rows.last, columns, total]);

  // A new result starts at the top.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the result's key (else its total) changing means a new result
  useEffect(() => {
    if (container) container.scrollTop = 0;
    scrollTop.current = 0;
    setWindowTop(0);
  }, [container, resultKey ?? total]);

  // While the grid scrolls, the cells passing under a still pointer would each get hover events and
  // hit tests (seen in the profile): the layer takes no pointer events until the scrolling pauses.
  const scrolling = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(scrolling.current), []);
  const pausePointer = () => {
    if (!layer.current) return;
    if (scrolling.current === undefined) layer.current.style.pointerEvents = "none";
    clearTimeout(scrolling.current);
    scrolling.current = setTimeout(() => {
      scrolling.current = undefined;
      if (layer.current) layer.current.style.pointerEvents = "";
    }, POINTER_PAUSE_MS);
  };

  const onScroll = () => {
    if (!container) return;
    pausePointer();
    scrollTop.current = container.scrollTop;
    const now = current.current;
    const next = gridWindow(scrollTop.current, now.rowHeight, now.rowCount, now.geometry, now.overscan);
    if (!sameWindow(next, now.rows)) setWindowTop(scrollTop.current);
    // Above the cap the rows move faster than the scrollbar: move the layer now, without React.
    else if (now.scaled) placeLayer(next.layerTop);
  };

  const palette = useMemo<GridPalette>(
    () => ({
      primary: token.colorPrimary,
      selectedBg: token.colorPrimaryBg,
      text: token.colorText,
      secondary: token.colorTextSecondary,
      border: token.colorBorderSecondary,
      background: token.colorBgContainer,
      fill: token.colorFillQuaternary,
      placeholder: token.colorFillSecondary,
      icon: token.colorTextQuaternary,
      link: token.colorLink,
    }),
    [token],
  );
  const labels = useMemo<GridLabels>(() => {
    // "Open {{title}}" translated once, the title put in per cell (an i18next call per cell shows in the profile).
    const [before = "", after = ""] = t("stories.open", { title: "\u0000" }).split("\u0000");
    return {
      open: (title: string) => before + title + after,
      select: t("stories.select"),
      untitled: t("stories.untitled"),
      draft: t("stories.status.draft"),
      types: {
        photo: t("stories.type.photo"),
        video: t("stories.type.video"),
        audio: t("stories.type.audio"),
        composite: t("stories.type.composite"),
      },
      date: new Intl.DateTimeFormat(i18n.language, { dateStyle: "short", timeStyle: "medium" }),
    };
  }, [t, i18n.language]);

  // The checkbox clicked last (its place and story), where a Shift-click's range starts.
  const anchor = useRef<{ index: number; key: string } | null>(null);
  const latest = useRef({ storyAt, selected, onToggle, onToggleRange });
  latest.current = { storyAt, selected, onToggle, onToggleRange };
  const toggleAt = useCallback((story: Story, index: number, shiftKey: boolean) => {
    const { storyAt: at, selected: chosen, onToggle: toggle, onToggleRange: toggleRange } = latest.current;
    const from = anchor.current;
    anchor.current = { index, key: storyKey(story) };
    // The anchor must still be the same story at the same place (a new result has other stories there).
    const fromStory = from ? at(from.index) : undefined;
    if (!shiftKey || !toggleRange || !from || from.index === index || !fromStory || storyKey(fromStory) !== from.key) {
      toggle(story);
      return;
    }
    const stories: Story[] = [];
    for (let i = Math.min(from.index, index); i <= Math.max(from.index, index); i++) {
      const loaded = at(i);
      if (loaded) stories.push(loaded);
    }
    toggleRange(stories, !chosen.has(storyKey(story)));
  }, []);

  const rendered = [];
  for (let row = rows.first; row < rows.last; row++) {
    const cells = [];
    for (let column = 0; column < columns; column++) {
      const index = row * columns + column;
      if (index >= total) break;
      const story = storyAt(index);
      const Cell = view === "grid" ? GridCell : ListRow;
      cells.push(
        <Cell
          key={index}
          story={story}
          index={index}
          selected={story ? selected.has(storyKey(story)) : false}
          onToggle={toggleAt}
          onOpen={onOpen}
          palette={palette}
          labels={labels}
          width={cardWidth}
        />,
      );
    }
    rendered.push(
      <div
        key={row}
        style={{
          position: "absolute",
          left: 0,
          right: 0,
          top: (row - rows.base) * rowHeight,
          height: rowHeight,
          display: "flex",
          gap: GAP,
          padding: view === "grid" ? `0 ${GAP}px` : 0,
          contain: "strict",
        }}
      >
        {cells}
      </div>,
    );
  }

  return (
    <div
      ref={setContainer}
      onScroll={onScroll}
      data-testid="story-grid"
      data-total={total}
      style={{ height, overflowY: "auto", position: "relative", contain: "strict", overflowAnchor: "none" }}
    >
      <div style={{ height: spacer, position: "relative" }}>
        <div
          ref={layer}
          style={{ position: "absolute", left: 0, right: 0, top: 0, height: 0, willChange: "transform" }}
        >
          {rendered}
        </div>
      </div>
    </div>
  );
}
