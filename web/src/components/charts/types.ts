/** One series of a chart: the data field it reads, its legend label, its colour. */
export interface ChartSeries {
  key: string;
  label: string;
  color?: string;
}

export interface ChartProps {
  data: Record<string, string | number>[];
  /** The field naming each bar or point (a job name, a day). */
  category: string;
  series: ChartSeries[];
  height?: number;
  /** How values read on the axis and in the tooltip (sizes as KB/MB/GB). */
  format?: (value: number) => string;
  /** Bars: stacked (default) or side by side. */
  stacked?: boolean;
  /** Bars: "vertical" lays categories down the side (long names). */
  layout?: "horizontal" | "vertical";
}
