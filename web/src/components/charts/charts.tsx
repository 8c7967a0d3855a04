import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import type { ChartProps } from "./types";

/** antd's preset colours, in an order whose neighbours differ. */
export const CHART_COLORS = ["#1890ff", "#52c41a", "#faad14", "#f5222d", "#722ed1", "#13c2c2", "#eb2f96", "#8c8c8c"];

function colorOf(index: number, color?: string): string {
  return color ?? CHART_COLORS[index % CHART_COLORS.length]!;
}

/** Bars per category, one coloured part per series (stacked, or side by side). */
export function BarsChart({ data, category, series, height = 260, format, stacked = true, layout }: ChartProps) {
  const vertical = layout === "vertical";
  const formatter = format ? (value: unknown) => format(Number(value)) : undefined;
  return (
    <ResponsiveContainer width="100%" height={height}>
      <BarChart data={data} layout={vertical ? "vertical" : "horizontal"} margin={{ left: 8, right: 16 }}>
        <CartesianGrid strokeDasharray="3 3" />
        {vertical ? (
          <>
            <XAxis type="number" tickFormatter={formatter} allowDecimals={false} />
            <YAxis type="category" dataKey={category} width={120} />
          </>
        ) : (
          <>
            <XAxis dataKey={category} />
            <YAxis tickFormatter={formatter} width={72} allowDecimals={false} />
          </>
        )}
        <Tooltip formatter={formatter} />
        {series.length > 1 ? <Legend /> : null}
        {series.map((item, index) => (
          <Bar
            key={item.key}
            dataKey={item.key}
            name={item.label}
            stackId={stacked ? "stack" : undefined}
            fill={colorOf(index, item.color)}
            isAnimationActive={false}
          />
        ))}
      </BarChart>
    </ResponsiveContainer>
  );
}

/** A line per series over the categories (days). */
export function LinesChart({ data, category, series, height = 260, format }: ChartProps) {
  const formatter = format ? (value: unknown) => format(Number(value)) : undefined;
  return (
    <ResponsiveContainer width="100%" height={height}>
      <LineChart data={data} margin={{ left: 8, right: 16 }}>
        <CartesianGrid strokeDasharray="3 3" />
        <XAxis dataKey={category} />
        <YAxis tickFormatter={formatter} width={72} allowDecimals={false} />
        <Tooltip formatter={formatter} />
        {series.length > 1 ? <Legend /> : null}
        {series.map((item, index) => (
          <Line
            key={item.key}
            type="monotone"
            dataKey={item.key}
            name={item.label}
            stroke={colorOf(index, item.color)}
            dot={false}
            isAnimationActive={false}
          />
        ))}
      </LineChart>
    </ResponsiveContainer>
  );
}
