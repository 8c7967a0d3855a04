import { Empty } from "antd";
import type { ReactNode } from "react";
import { LazyPart, lazyChunk } from "../lazy-part";
import type { ChartProps } from "./types";

export type { ChartProps, ChartSeries } from "./types";

/**
 * The charts (recharts, docs/decisions.md) load in a chunk of their own the
 * first time a monitor draws one: no other page carries the library.
 */
const LazyBars = lazyChunk("charts", () => import("./charts").then((module) => module.BarsChart));
const LazyLines = lazyChunk("charts", () => import("./charts").then((module) => module.LinesChart));

function Frame({ height = 260, children }: { height?: number; children: ReactNode }) {
  return (
    <div style={{ width: "100%", minHeight: height }}>
      <LazyPart>{children}</LazyPart>
    </div>
  );
}

export function BarsChart(props: ChartProps) {
  if (props.data.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />;
  return (
    <Frame height={props.height}>
      <LazyBars {...props} />
    </Frame>
  );
}

export function LinesChart(props: ChartProps) {
  if (props.data.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />;
  return (
    <Frame height={props.height}>
      <LazyLines {...props} />
    </Frame>
  );
}
