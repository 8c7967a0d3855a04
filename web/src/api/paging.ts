/**
 * The paging of the API's lists (spec section 7, DESIGN.md section 3): a list
 * query with `keyword`, a zero-based `page` and a `size`, and a page of
 * results (`content`, `totalElements`).
 */

export interface ListQuery {
  keyword?: string;
  page: number;
  size: number;
  name?: string;
}

export interface Page<T> {
  content: T[];
  totalElements: number;
  size?: number;
  number?: number;
}

/** A page as the story lists and the download centre answer it: size and number always given. */
export type PageOf<T> = Required<Page<T>>;
