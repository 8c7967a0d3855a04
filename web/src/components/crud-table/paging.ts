/**
 * Translation between ProTable's paging (1-based `current`, `pageSize`) and the
 * API's list query and page (api/paging.ts; `size` default 10).
 */
import type { ListQuery, Page } from "../../api/paging";

export const DEFAULT_PAGE_SIZE = 10;

export interface TableParams {
  current?: number;
  pageSize?: number;
  keyword?: string;
  name?: string;
}

export function toListQuery(params: TableParams): ListQuery {
  const size = params.pageSize && params.pageSize > 0 ? params.pageSize : DEFAULT_PAGE_SIZE;
  const current = params.current && params.current > 0 ? params.current : 1;
  const query: ListQuery = { page: current - 1, size };
  const keyword = params.keyword?.trim();
  if (keyword) query.keyword = keyword;
  const name = params.name?.trim();
  if (name) query.name = name;
  return query;
}

export function toTableResult<T>(page: Page<T>): { data: T[]; total: number; success: true } {
  return { data: page.content, total: page.totalElements, success: true };
}

/** The numbers of the range text 第a-b条 共n条 (ProTable passes range [a, b] and total n). */
export function rangeParams(range: [number, number], total: number): { from: number; to: number; total: number } {
  return { from: range[0], to: range[1], total };
}
