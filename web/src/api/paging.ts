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

/**
 * The calls of a resource kept by id, as most back-area screens list and edit it (tags, presets, roles…):
 * what `ResourceTable` needs to page through it, add, change and delete entries.
 */
export interface ResourceCalls<T, I> {
  list: (query: ListQuery) => Promise<Page<T>>;
  create: (input: I) => Promise<unknown>;
  update: (id: string, input: I) => Promise<unknown>;
  remove: (id: string) => Promise<unknown>;
}

export const resourceCalls = <T, I>(
  list: ResourceCalls<T, I>["list"],
  create: ResourceCalls<T, I>["create"],
  update: ResourceCalls<T, I>["update"],
  remove: ResourceCalls<T, I>["remove"],
): ResourceCalls<T, I> => ({ list, create, update, remove });
