import { exportTable } from "../exports/export-table.js";
import { USAGE_PERMISSION } from "./monitor.routes.js";
import { type UsageFilter, type UsageRowView, usageFilter } from "./usage.schema.js";
import type { UsageStatistics } from "./usage.service.js";

/** The usage statistics' table for POST /export/table_0 (`table: "usage"`), as the page shows it. */
export function usageExportTable(usage: UsageStatistics) {
  return exportTable<UsageRowView, UsageFilter>({
    name: "usage",
    access: { permission: USAGE_PERMISSION, action: "export" },
    filter: usageFilter,
    columns: {
      key: (row) => row.key,
      name: (row) => row.label ?? row.key,
      downloads: (row) => row.downloads,
      publishes: (row) => row.publishes,
      shares: (row) => row.shares,
    },
    // At most 500 rows (the filter's limit): read at once.
    rows: async function* (filter) {
      yield* await usage.usage(filter);
    },
    maxRows: 500,
  });
}
