/** The grid's fixed sizes (px): every cell and row has one, so nothing in the grid is measured. */
export const CELL_WIDTH = 180;
/** The narrowest a card gets, so that a phone shows two columns rather than one. */
export const MIN_CELL_WIDTH = 150;
export const CELL_HEIGHT = 220;
export const LIST_ROW_HEIGHT = 64;
export const GAP = 12;
/** The card's caption under its thumbnail. */
export const CAPTION_HEIGHT = 52;

/**
 * The grid's columns in a row of `width` px (cards with GAP around and
 * between them): as many CELL_WIDTH cards as fit, or, where fewer than two
 * would, as many MIN_CELL_WIDTH ones.
 */
export function gridColumns(width: number): number {
  const columnsOf = (cell: number) => Math.max(1, Math.floor((width - GAP) / (cell + GAP)));
  const wide = columnsOf(CELL_WIDTH);
  return wide >= 2 ? wide : columnsOf(MIN_CELL_WIDTH);
}

/** A card's width in a row of `width` px with `columns` cards: CELL_WIDTH, or narrower to fit. */
export function cellWidth(width: number, columns: number): number {
  return Math.max(1, Math.min(CELL_WIDTH, Math.floor((width - (columns + 1) * GAP) / columns)));
}
