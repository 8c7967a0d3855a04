import { type CSSProperties, memo, useEffect, useRef, useState } from "react";
import type { Story, StoryType } from "../../api/stories";
import { startStoryDrag } from "../story-drag";
import { cardImageUrl, StoryTypeIcon } from "../story-media";
import { CAPTION_HEIGHT, CELL_HEIGHT, LIST_ROW_HEIGHT } from "./geometry";

export const storyKey = (story: Pick<Story, "libraryId" | "storyId">) => `${story.libraryId}/${story.storyId}`;

/** The theme's colours a cell uses, read once by the grid. */
export interface GridPalette {
  primary: string;
  selectedBg: string;
  text: string;
  secondary: string;
  border: string;
  background: string;
  fill: string;
  placeholder: string;
  icon: string;
  link: string;
}

/** The strings a cell shows, translated once by the grid. */
export interface GridLabels {
  open: (title: string) => string;
  select: string;
  untitled: string;
  draft: string;
  types: Record<StoryType, string>;
  date: Intl.DateTimeFormat;
}

export interface CellProps {
  story: Story | undefined;
  /** The story's place in the result (for a range picked with Shift). */
  index: number;
  selected: boolean;
  /** A click on the checkbox; `shiftKey`: held down, so the range from the last one clicked is meant. */
  onToggle: (story: Story, index: number, shiftKey: boolean) => void;
  onOpen: (story: Story) => void;
  palette: GridPalette;
  labels: GridLabels;
  /** A grid card's width (px); list rows fill theirs. */
  width: number;
}

/** One line, cut with an ellipsis by CSS (antd's ellipsis measures every cell, which scrolling cannot afford). */
const oneLine: CSSProperties = { display: "block", whiteSpace: "nowrap", overflow: "hidden", textOverflow: "ellipsis" };
const unsetButton: CSSProperties = { all: "unset", cursor: "pointer", boxSizing: "border-box" };
const checkbox = (palette: GridPalette): CSSProperties => ({
  width: 16,
  height: 16,
  margin: 0,
  cursor: "pointer",
  accentColor: palette.primary,
  flex: "none",
});

/** The checkboxes are controlled and act on click (which carries the Shift key; a keyboard's Space clicks too). */
const noChange = () => {};

/** A card's or a row's checkbox. */
function SelectBox({
  story,
  index,
  selected,
  onToggle,
  label,
  style,
}: Pick<CellProps, "index" | "selected" | "onToggle"> & { story: Story; label: string; style: CSSProperties }) {
  return (
    <input
      type="checkbox"
      checked={selected}
      onChange={noChange}
      onClick={(event) => onToggle(story, index, event.shiftKey)}
      aria-label={label}
      style={style}
    />
  );
}

const titleOf = (story: Story, labels: GridLabels) => story.title || story.originalName || labels.untitled;

/**
 * A thumbnail filling its box, or the type's icon when the story has none or
 * it fails. Decoded off the main thread; a load still running when the cell
 * leaves the grid is cancelled (an empty `src` aborts it), so a fast scroll
 * does not queue the thumbnails of every row it passed.
 */
function CellThumbnail({ story, palette, iconSize }: { story: Story; palette: GridPalette; iconSize: number }) {
  const src = cardImageUrl(story);
  const [failed, setFailed] = useState<string | null>(null);
  const image = useRef<HTMLImageElement>(null);
  useEffect(() => {
    const element = image.current;
    return () => {
      if (element && !element.complete) element.src = "";
    };
  }, []);
  return (
    <span
      style={{
        display: "flex",
        width: "100%",
        height: "100%",
        alignItems: "center",
        justifyContent: "center",
        background: palette.fill,
        overflow: "hidden",
      }}
    >
      {src && failed !== src ? (
        <img
          ref={image}
          src={src}
          alt={story.title}
          loading="lazy"
          decoding="async"
          draggable={false}
          onError={() => setFailed(src)}
          style={{ width: "100%", height: "100%", objectFit: "contain", display: "block" }}
        />
      ) : (
        <StoryTypeIcon type={story.type} style={{ fontSize: iconSize, color: palette.icon }} />
      )}
    </span>
  );
}

/** A cell whose page is still loading: flat blocks, no animation running under a fast scroll. */
function Placeholder({ style, palette }: { style: CSSProperties; palette: GridPalette }) {
  const block: CSSProperties = { background: palette.placeholder, borderRadius: 4 };
  return (
    <div style={style} data-testid="story-placeholder" aria-busy="true">
      <div style={{ ...block, height: "60%" }} />
      <div style={{ ...block, height: 14, marginTop: 10, width: "80%" }} />
      <div style={{ ...block, height: 12, marginTop: 8, width: "50%" }} />
    </div>
  );
}

const card = (selected: boolean, palette: GridPalette, width: number): CSSProperties => ({
  width,
  height: CELL_HEIGHT,
  boxSizing: "border-box",
  border: `1px solid ${selected ? palette.primary : palette.border}`,
  borderRadius: 8,
  overflow: "hidden",
  background: palette.background,
  position: "relative",
  flex: "none",
  contain: "strict",
});

/**
 * A card of the grid: plain elements only. Memoized: it renders again only
 * when its story (from the query cache), its selection, the theme or the
 * language change.
 */
export const GridCell = memo(function GridCell({
  story,
  index,
  selected,
  onToggle,
  onOpen,
  palette,
  labels,
  width,
}: CellProps) {
  if (!story) return <Placeholder style={{ ...card(false, palette, width), padding: 8 }} palette={palette} />;
  const title = titleOf(story, labels);
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a card is dragged onto a folder to file it (the keyboard's way is the selection bar's 移动)
    <div
      style={card(selected, palette, width)}
      data-testid="story-card"
      data-story={storyKey(story)}
      data-index={index}
      draggable
      onDragStart={(event) => startStoryDrag(event, story)}
    >
      <button
        type="button"
        onClick={() => onOpen(story)}
        aria-label={labels.open(story.title || story.originalName || story.storyId)}
        style={{ ...unsetButton, display: "block", width: "100%", height: CELL_HEIGHT - CAPTION_HEIGHT }}
      >
        <CellThumbnail story={story} palette={palette} iconSize={40} />
      </button>
      <SelectBox
        story={story}
        index={index}
        selected={selected}
        onToggle={onToggle}
        label={labels.select}
        style={{ ...checkbox(palette), position: "absolute", top: 8, left: 8 }}
      />
      <div style={{ padding: "4px 8px" }}>
        <button
          type="button"
          onClick={() => onOpen(story)}
          title={story.title}
          data-testid="story-card-title"
          style={{ ...unsetButton, ...oneLine, width: "100%" }}
        >
          {title}
        </button>
        <span style={{ ...oneLine, fontSize: 12, color: palette.secondary }}>
          <StoryTypeIcon type={story.type} style={{ verticalAlign: "-2px" }} /> {labels.types[story.type]}
          {story.status === "draft" ? (
            <span
              style={{
                marginLeft: 4,
                padding: "0 6px",
                border: `1px solid ${palette.border}`,
                borderRadius: 4,
                background: palette.fill,
                color: palette.text,
              }}
            >
              {labels.draft}
            </span>
          ) : null}
        </span>
      </div>
    </div>
  );
});

/** A row of the list view: plain elements only, memoized like the cards. */
export const ListRow = memo(function ListRow({ story, index, selected, onToggle, onOpen, palette, labels }: CellProps) {
  if (!story)
    return (
      <Placeholder style={{ flex: 1, padding: 8, height: LIST_ROW_HEIGHT - 8, contain: "strict" }} palette={palette} />
    );
  const title = titleOf(story, labels);
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a row is dragged onto a folder to file it (the keyboard's way is the selection bar's 移动)
    <div
      data-testid="story-card"
      data-story={storyKey(story)}
      data-index={index}
      draggable
      onDragStart={(event) => startStoryDrag(event, story)}
      style={{
        flex: 1,
        minWidth: 0,
        display: "flex",
        alignItems: "center",
        gap: 12,
        padding: "0 8px",
        borderBottom: `1px solid ${palette.border}`,
        background: selected ? palette.selectedBg : undefined,
        contain: "strict",
      }}
    >
      <SelectBox
        story={story}
        index={index}
        selected={selected}
        onToggle={onToggle}
        label={labels.select}
        style={checkbox(palette)}
      />
      <button
        type="button"
        onClick={() => onOpen(story)}
        style={{ ...unsetButton, width: 56, height: 56, flex: "none" }}
      >
        <CellThumbnail story={story} palette={palette} iconSize={24} />
      </button>
      <button
        type="button"
        onClick={() => onOpen(story)}
        style={{ ...unsetButton, ...oneLine, flex: 1, minWidth: 0, color: palette.link }}
      >
        {title}
      </button>
      <span style={{ ...oneLine, width: 80, flex: "none", color: palette.secondary }}>{labels.types[story.type]}</span>
      <span style={{ ...oneLine, width: 160, flex: "none", color: palette.secondary }}>
        {labels.date.format(new Date(story.updatedAt))}
      </span>
    </div>
  );
});
