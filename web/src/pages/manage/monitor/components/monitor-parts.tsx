import { Card, Col, Segmented, Statistic, type StatisticProps } from "antd";
import { useTranslation } from "react-i18next";

/** A figure of a monitor's top row: a quarter of the row on wide screens, half of it on narrow ones. */
export function FigureCard({ testId, ...statistic }: StatisticProps & { testId: string }) {
  return (
    <Col xs={12} md={6}>
      <Card size="small" data-testid={testId}>
        <Statistic {...statistic} />
      </Card>
    </Col>
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
