import type { TablePaginationConfig } from "antd";
import { useState } from "react";

/** The paging part of a monitor list's query: a zero-based page and its size. */
interface PagedQuery {
  page?: number;
  size?: number;
}

/**
 * A monitor list's query, paged on the server: a change of filter starts again at the first page, and the
 * table's pager turns the pages (antd's are one-based, the API's zero-based).
 */
export function usePagedQuery<Q extends PagedQuery>(first: Q) {
  const [query, setQuery] = useState<Q>(first);
  const filter = (change: Partial<Q>) => setQuery((current) => ({ ...current, ...change, page: 0 }));
  const pagination = (total: number | undefined): TablePaginationConfig => ({
    current: (query.page ?? 0) + 1,
    pageSize: query.size,
    total: total ?? 0,
    showSizeChanger: true,
    onChange: (page, size) => setQuery((current) => ({ ...current, page: page - 1, size })),
  });
  return { query, filter, pagination };
}
