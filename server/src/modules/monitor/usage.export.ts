import { exportTable, fieldColumns, readAtOnce } from "../exports/export-table.js";
import { USAGE_PERMISSION } from "./monitor.routes.js";
import {
  type SearchMissQuery,
  searchMissQuery,
  type UsageFilter,
  type UsageRowView,
  usageFilter,
} from "./usage.schema.js";
import type { UsageStatistics } from "./usage.service.js";
import type { SearchMissRow } from "./usage-counter.js";

/** The usage statistics' table for POST /export/table_0 (`table: "usage"`), as the page shows it. */
export function usageExportTable(usage: UsageStatistics) {
  return exportTable<UsageRowView, UsageFilter>({
    name: "usage",
    access: { permission: USAGE_PERMISSION, action: "export" },
    filter: usageFilter,
    columns: {
      key: (row) => row.key,
      name: (row) => row.label ?? row.key,
      ...fieldColumns<UsageRowView>(["views", "downloads", "publishes", "shares"]),
    },
    // At most 500 rows (the filter's limit).
    rows: readAtOnce((filter) => usage.usage(filter)),
    maxRows: 500,
  });
}

/** The searches that found nothing (`table: "searches"`), as the usage statistics page shows them. */
export function searchMissesExportTable(usage: UsageStatistics) {
  return exportTable<SearchMissRow, SearchMissQuery>({
    name: "searches",
    access: { permission: USAGE_PERMISSION, action: "export" },
    filter: searchMissQuery,
    columns: fieldColumns<SearchMissRow>(["query", "searches", "lastAt"]),
    rows: readAtOnce((filter) => usage.searchMisses(filter)),
    maxRows: 500,
  });
}
