/**
 * The pager of a list or table over the server's pages (`page` counts from 0, antd's from 1): none while everything
 * fits on one page. `small` for the compact pager of a dialog or a narrow list.
 */
export function pagerWhenMany(
  total: number | undefined,
  page: number,
  pageSize: number,
  setPage: (page: number) => void,
  { small = false }: { small?: boolean } = {},
) {
  if ((total ?? 0) <= pageSize) return false as const;
  return {
    current: page + 1,
    pageSize,
    total,
    onChange: (next: number) => setPage(next - 1),
    ...(small ? { size: "small" as const } : {}),
  };
}
