import type { ProColumns } from "@ant-design/pro-components";

/** A back-area list's date-time column (when an entry was made or last changed), hidden on narrow screens. */
export function dateTimeColumn<T>(title: string, dataIndex: keyof T & string): ProColumns<T> {
  return { title, dataIndex, valueType: "dateTime", responsive: ["lg"] };
}
