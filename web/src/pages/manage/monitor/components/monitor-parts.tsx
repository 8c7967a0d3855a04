import { Alert, Card, Col, Row, Segmented, Statistic, type StatisticProps } from "antd";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { BarsChart, type ChartSeries } from "../../../../components/charts";

/** A monitor page: its parts in a column, under an error banner when its figures failed to load. */
export function MonitorColumn({ failed, children }: { failed: boolean; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div style={{ display: "flex", flexDirection: "column", gap: 16 }}>
      {failed ? <Alert type="error" message={t("monitor.loadFailed")} /> : null}
      {children}
    </div>
  );
}

export type Figure = StatisticProps & { testId: string };

/** A monitor's top row of figures: each a quarter of the row on wide screens, half of it on narrow ones. */
export function FigureRow({ figures, loading }: { figures: Figure[]; loading: boolean }) {
  return (
    <Row gutter={[16, 16]}>
      {figures.map(({ testId, ...statistic }) => (
        <Col key={testId} xs={12} md={6}>
          <Card size="small" data-testid={testId}>
            <Statistic loading={loading} {...statistic} />
          </Card>
        </Col>
      ))}
    </Row>
  );
}

/** The days a monitor's per-day figures cover, picked from `choices`. */
export function DaysPicker({
  value,
  onChange,
  choices,
  testId,
}: {
  value: number;
  onChange: (days: number) => void;
  choices: readonly number[];
  testId?: string;
}) {
  const { t } = useTranslation();
  return (
    <Segmented
      size="small"
      value={value}
      onChange={(picked) => onChange(Number(picked))}
      options={choices.map((days) => ({ value: days, label: t("monitor.storage.days", { count: days }) }))}
      data-testid={testId}
    />
  );
}

/** A chart of a monitor's grid: half the row on wide screens, the whole of it on narrow ones. */
export function ChartCard({ title, testId, children }: { title: ReactNode; testId?: string; children: ReactNode }) {
  return (
    <Col xs={24} lg={12}>
      <Card size="small" title={title} data-testid={testId}>
        {children}
      </Card>
    </Col>
  );
}

/**
 * The bars both the data and the storage monitor show first: a figure by story type, and by library (named, or by
 * its id when it has no name). `series` names the figures each row carries.
 */
export function TypeAndLibraryBars({
  byType,
  byLibrary,
  typeSeries,
  librarySeries,
  format,
}: {
  byType: readonly ({ type: string } & Record<string, unknown>)[];
  byLibrary: readonly ({ libraryId: string; libraryName?: string | null } & Record<string, unknown>)[];
  typeSeries: ChartSeries[];
  librarySeries: ChartSeries[];
  format?: (value: number) => string;
}) {
  const { t } = useTranslation();
  const figures = (row: Record<string, unknown>, series: ChartSeries[]): Record<string, number> =>
    Object.fromEntries(series.map(({ key }) => [key, row[key] as number]));
  return (
    <>
      <ChartCard title={t("monitor.storage.byType")}>
        <BarsChart
          category="label"
          data={byType.map((row) => ({ label: t(`monitor.storage.type.${row.type}`), ...figures(row, typeSeries) }))}
          series={typeSeries}
          format={format}
        />
      </ChartCard>
      <ChartCard title={t("monitor.storage.byLibraryChart")}>
        <BarsChart
          layout="vertical"
          category="label"
          data={byLibrary.map((row) => ({ label: row.libraryName ?? row.libraryId, ...figures(row, librarySeries) }))}
          series={librarySeries}
          format={format}
        />
      </ChartCard>
    </>
  );
}
