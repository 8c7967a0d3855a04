/**
 * Browsers cap an element's height (Chromium ≈ 33 554 428 px, Firefox less),
 * so 100 000 rows of thumbnails cannot get a spacer of their true height. The
 * grid's spacer is at most MAX_SCROLL_HEIGHT tall and the scroll position is
 * scaled linearly onto the content: scrollTop s of a spacer of height H maps
 * to the content offset s × (C − V) / (H − V), with C the true content height
 * and V the viewport. Below the cap the factor is exactly 1 and nothing
 * changes; above it, the scrollbar's thumb still spans the whole result and a
 * wheel step moves a few more pixels of content than the thumb moved.
 */
export const MAX_SCROLL_HEIGHT = 15_000_000;

export interface ScrollGeometry {
  /** The true height of all rows. */
  contentHeight: number;
  /** The visible height of the scroll container. */
  viewportHeight: number;
  /** The cap of the spacer (MAX_SCROLL_HEIGHT unless a test says otherwise). */
  maxHeight?: number;
}

/** The height to give the spacer element. */
export function spacerHeight({ contentHeight, maxHeight = MAX_SCROLL_HEIGHT }: ScrollGeometry): number {
  return Math.min(Math.max(0, contentHeight), maxHeight);
}

/** Content pixels per scrollbar pixel (1 below the cap). */
export function scrollScale(geometry: ScrollGeometry): number {
  const spacer = spacerHeight(geometry);
  const scrollRange = spacer - geometry.viewportHeight;
  const contentRange = geometry.contentHeight - geometry.viewportHeight;
  if (scrollRange <= 0 || contentRange <= 0) return 1;
  return contentRange / scrollRange;
}

/** The content offset shown at a scrollTop. */
export function contentOffset(scrollTop: number, geometry: ScrollGeometry): number {
  const maxOffset = Math.max(0, geometry.contentHeight - geometry.viewportHeight);
  return Math.min(maxOffset, Math.max(0, scrollTop * scrollScale(geometry)));
}

/** The scrollTop that shows a content offset (to scroll a row into view). */
export function scrollTopFor(offset: number, geometry: ScrollGeometry): number {
  const maxScroll = Math.max(0, spacerHeight(geometry) - geometry.viewportHeight);
  return Math.min(maxScroll, Math.max(0, offset / scrollScale(geometry)));
}

export interface VisibleRows {
  first: number;
  /** Exclusive. */
  last: number;
  /** Where the first row is drawn, relative to the top of the viewport (≤ 0). */
  firstTop: number;
}

/** The rows to render for a scrollTop, with `overscan` extra rows on each side. */
export function visibleRows(
  scrollTop: number,
  rowHeight: number,
  rowCount: number,
  geometry: Omit<ScrollGeometry, "contentHeight">,
  overscan = 2,
): VisibleRows {
  const full: ScrollGeometry = { ...geometry, contentHeight: rowCount * rowHeight };
  const offset = contentOffset(scrollTop, full);
  const firstVisible = Math.floor(offset / rowHeight);
  const first = Math.max(0, firstVisible - overscan);
  const last = Math.min(rowCount, Math.ceil((offset + geometry.viewportHeight) / rowHeight) + overscan);
  return { first, last, firstTop: first * rowHeight - offset };
}

/**
 * Rows are drawn in a layer at (row − base) × rowHeight, base being the first
 * row of the block of BLOCK_ROWS rows the window starts in. Rows already
 * drawn keep their place while the window moves inside a block (no layout of
 * them again), and no row is drawn more than a block's height down the layer,
 * far below the browser's layout limits whatever the length of the result.
 */
export const BLOCK_ROWS = 4096;

export interface GridWindow extends VisibleRows {
  /** The first row of the block: rows are drawn at (row − base) × rowHeight in the layer. */
  base: number;
  /**
   * Where the layer goes in the spacer (its translateY). Below the cap it is
   * base × rowHeight and stays put while the browser scrolls; above it, the
   * scroll mapping moves the layer on every scroll step.
   */
  layerTop: number;
}

/** The rows to render for a scrollTop and where to put them. */
export function gridWindow(
  scrollTop: number,
  rowHeight: number,
  rowCount: number,
  geometry: Omit<ScrollGeometry, "contentHeight">,
  overscan = 2,
): GridWindow {
  const rows = visibleRows(scrollTop, rowHeight, rowCount, geometry, overscan);
  const base = rows.first - (rows.first % BLOCK_ROWS);
  return { ...rows, base, layerTop: layerTopFor(scrollTop, base, rowHeight, rowCount, geometry) };
}

/** The layer's place for rows drawn from `base` at a scrollTop: row r lands at scrollTop + r × rowHeight − offset. */
export function layerTopFor(
  scrollTop: number,
  base: number,
  rowHeight: number,
  rowCount: number,
  geometry: Omit<ScrollGeometry, "contentHeight">,
): number {
  return scrollTop - contentOffset(scrollTop, { ...geometry, contentHeight: rowCount * rowHeight }) + base * rowHeight;
}

/** Same rows at the same places (only the layer may move). */
export function sameWindow(a: GridWindow, b: GridWindow): boolean {
  return a.first === b.first && a.last === b.last && a.base === b.base;
}

/** The zero-based pages of `pageSize` items that hold the items [firstItem, lastItem). */
export function pagesFor(firstItem: number, lastItem: number, pageSize: number): number[] {
  if (lastItem <= firstItem) return [];
  const pages: number[] = [];
  for (let page = Math.floor(firstItem / pageSize); page <= Math.floor((lastItem - 1) / pageSize); page++)
    pages.push(page);
  return pages;
}
