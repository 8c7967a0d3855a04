import { Checkbox, Tag, Typography } from "antd";
import { type CSSProperties, memo, useEffect, useLayoutEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { Story } from "../../api/stories";
import { cardImageUrl, StoryThumbnail, StoryTypeIcon } from "../story-media";
import { columnsFor, spacerHeight, visibleRows } from "./scroll-mapping";

export type StoryGridView = "grid" | "list";

export interface StoryGridProps {
  total: number;
  storyAt: (index: number) => Story | undefined;
  /** The items [from, to) being rendered, so their pages get loaded. */
  onRange: (from: number, to: number) => void;
  view: StoryGridView;
  selected: ReadonlySet<string>;
  onToggle: (story: Story) => void;
  onOpen: (story: Story) => void;
  /** The height of the scroll area (CSS). */
  height?: string;
}

const CELL_WIDTH = 180;
const CELL_HEIGHT = 220;
const LIST_ROW_HEIGHT = 64;
const GAP = 12;

export const storyKey = (story: Pick<Story, "libraryId" | "storyId">) => `${story.libraryId}/${story.storyId}`;

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
 * The virtualized result grid (or list). Only the rows in view (plus two on
 * each side) are in the DOM. The spacer that gives the scrollbar its length is
 * capped below the browser's maximum element height and the scroll position
 * is mapped onto the rows (see scroll-mapping.ts), so 100 000 results and
 * more stay reachable down to the last one. Built by hand rather than with a
 * virtualizer library because none of them maps the scroll position.
 */
export function StoryGrid(props: StoryGridProps) {
  const {
    total,
    storyAt,
    onRange,
    view,
    selected,
    onToggle,
    onOpen,
    height = "max(360px, calc(100vh - 280px))",
  } = props;
  const [container, setContainer] = useState<HTMLDivElement | null>(null);
  const { width, height: viewportHeight } = useSize(container);
  const [scrollTop, setScrollTop] = useState(0);
  const frame = useRef(0);

  const columns = view === "grid" ? columnsFor(width - GAP, CELL_WIDTH, GAP) : 1;
  const rowHeight = view === "grid" ? CELL_HEIGHT + GAP : LIST_ROW_HEIGHT;
  const rowCount = Math.ceil(total / columns);
  const geometry = { viewportHeight: Math.max(1, viewportHeight) };
  const rows = visibleRows(scrollTop, rowHeight, rowCount, geometry);
  const spacer = spacerHeight({ contentHeight: rowCount * rowHeight, ...geometry });

  useEffect(() => {
    onRange(rows.first * columns, Math.min(total, rows.last * columns));
  }, [onRange, rows.first, rows.last, columns, total]);

  // A new result starts at the top.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the total changing means a new result
  useEffect(() => {
    if (container) container.scrollTop = 0;
    setScrollTop(0);
  }, [container, total]);

  const onScroll = () => {
    cancelAnimationFrame(frame.current);
    frame.current = requestAnimationFrame(() => setScrollTop(container?.scrollTop ?? 0));
  };

  const rendered = [];
  for (let row = rows.first; row < rows.last; row++) {
    const cells = [];
    for (let column = 0; column < columns; column++) {
      const index = row * columns + column;
      if (index >= total) break;
      const story = storyAt(index);
      cells.push(
        view === "grid" ? (
          <GridCell
            key={index}
            story={story}
            selected={story ? selected.has(storyKey(story)) : false}
            onToggle={onToggle}
            onOpen={onOpen}
          />
        ) : (
          <ListRow
            key={index}
            story={story}
            selected={story ? selected.has(storyKey(story)) : false}
            onToggle={onToggle}
            onOpen={onOpen}
          />
        ),
      );
    }
    rendered.push(
      <div
        key={row}
        style={{
          position: "absolute",
          left: 0,
          right: 0,
          top: rows.firstTop + (row - rows.first) * rowHeight,
          height: rowHeight,
          display: "flex",
          gap: GAP,
          padding: view === "grid" ? `0 ${GAP}px` : 0,
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
      style={{ height, overflowY: "auto", position: "relative", contain: "strict" }}
    >
      <div style={{ height: spacer, position: "relative" }}>
        {/* Moved with a transform, so a scroll step repaints the layer without laying the grid out again. */}
        <div
          style={{
            position: "absolute",
            left: 0,
            right: 0,
            top: 0,
            height: 0,
            transform: `translateY(${scrollTop}px)`,
            willChange: "transform",
          }}
        >
          {rendered}
        </div>
      </div>
    </div>
  );
}

interface CellProps {
  story: Story | undefined;
  selected: boolean;
  onToggle: (story: Story) => void;
  onOpen: (story: Story) => void;
}

const cardStyle = (selected: boolean): CSSProperties => ({
  width: CELL_WIDTH,
  height: CELL_HEIGHT,
  border: `1px solid ${selected ? "#1677ff" : "#f0f0f0"}`,
  borderRadius: 8,
  overflow: "hidden",
  background: "#fff",
  position: "relative",
  cursor: "pointer",
  flex: "none",
});

/** One line, cut with an ellipsis by CSS (antd's ellipsis measures every cell, which scrolling cannot afford). */
const oneLine: CSSProperties = { display: "block", whiteSpace: "nowrap", overflow: "hidden", textOverflow: "ellipsis" };

/** A cell whose page is still loading: flat grey blocks, no animation running under a fast scroll. */
function Placeholder({ style }: { style: CSSProperties }) {
  const block: CSSProperties = { background: "#f0f0f0", borderRadius: 4 };
  return (
    <div style={style} data-testid="story-placeholder" aria-busy="true">
      <div style={{ ...block, height: "60%" }} />
      <div style={{ ...block, height: 14, marginTop: 10, width: "80%" }} />
      <div style={{ ...block, height: 12, marginTop: 8, width: "50%" }} />
    </div>
  );
}

/**
 * Cells are memoized: a scroll step re-renders the grid to move its rows,
 * while a cell changes only when its story (from the query cache), its
 * selection or the handlers do.
 */
const GridCell = memo(function GridCell({ story, selected, onToggle, onOpen }: CellProps) {
  const { t } = useTranslation();
  if (!story) return <Placeholder style={{ ...cardStyle(false), padding: 8 }} />;
  return (
    <div style={cardStyle(selected)} data-testid="story-card" data-story={storyKey(story)}>
      <button
        type="button"
        onClick={() => onOpen(story)}
        aria-label={t("stories.open", { title: story.title || story.originalName || story.storyId })}
        style={{ all: "unset", display: "block", width: "100%", height: CELL_HEIGHT - 52 }}
      >
        <StoryThumbnail src={cardImageUrl(story)} type={story.type} alt={story.title} />
      </button>
      <Checkbox
        checked={selected}
        onChange={() => onToggle(story)}
        aria-label={t("stories.select")}
        style={{ position: "absolute", top: 6, left: 8 }}
      />
      <div style={{ padding: "4px 8px" }}>
        <Typography.Text style={oneLine} title={story.title}>
          {story.title || story.originalName || t("stories.untitled")}
        </Typography.Text>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          <StoryTypeIcon type={story.type} /> {t(`stories.type.${story.type}`)}
          {story.status === "draft" ? <Tag style={{ marginLeft: 4 }}>{t("stories.status.draft")}</Tag> : null}
        </Typography.Text>
      </div>
    </div>
  );
});

const ListRow = memo(function ListRow({ story, selected, onToggle, onOpen }: CellProps) {
  const { t, i18n } = useTranslation();
  if (!story) return <Placeholder style={{ flex: 1, padding: 8, height: LIST_ROW_HEIGHT - 8 }} />;
  return (
    <div
      data-testid="story-card"
      data-story={storyKey(story)}
      style={{
        flex: 1,
        display: "flex",
        alignItems: "center",
        gap: 12,
        padding: "0 8px",
        borderBottom: "1px solid #f0f0f0",
        background: selected ? "#e6f4ff" : undefined,
      }}
    >
      <Checkbox checked={selected} onChange={() => onToggle(story)} aria-label={t("stories.select")} />
      <button
        type="button"
        onClick={() => onOpen(story)}
        style={{ all: "unset", width: 56, height: 56, cursor: "pointer" }}
      >
        <StoryThumbnail src={cardImageUrl(story)} type={story.type} alt={story.title} />
      </button>
      <Typography.Link onClick={() => onOpen(story)} style={{ ...oneLine, flex: 1, minWidth: 0 }}>
        {story.title || story.originalName || t("stories.untitled")}
      </Typography.Link>
      <Typography.Text type="secondary" style={{ width: 80 }}>
        {t(`stories.type.${story.type}`)}
      </Typography.Text>
      <Typography.Text type="secondary" style={{ width: 160 }}>
        {new Date(story.updatedAt).toLocaleString(i18n.language)}
      </Typography.Text>
    </div>
  );
});
