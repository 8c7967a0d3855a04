import { Card, Row } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useDataMonitor } from "../../../../api/monitor";
import { BarsChart, LinesChart } from "../../../../components/charts";
import "../../../../locales/monitor";
import { ChartCard, DaysPicker, FigureRow, MonitorColumn, TypeAndLibraryBars } from "../components/monitor-parts";

const STATUSES = ["draft", "committed", "published"] as const;
/** The top lists' charts: the list, its title and its test id. */
const TOPS = [
  { list: "topAuthors", testId: "data-top-authors" },
  { list: "topSources", testId: "data-top-sources" },
] as const;

/** The data monitor (/manage/monitor/data): stories by type, status and library; per day; top authors and sources. */
export default function ManageMonitorDataPage() {
  const { t } = useTranslation();
  const [days, setDays] = useState(30);
  const monitor = useDataMonitor(days);
  const data = monitor.data;
  const countOf = (status: (typeof STATUSES)[number]) =>
    data?.byStatus.find((row) => row.status === status)?.stories ?? 0;
  const stories = [{ key: "stories", label: t("monitor.data.stories") }];
  return (
    <MonitorColumn failed={monitor.isError}>
      <FigureRow
        loading={monitor.isLoading}
        figures={[
          { testId: "data-total", title: t("monitor.data.total"), value: data?.stories ?? "-" },
          ...STATUSES.map((status) => ({
            testId: `data-status-${status}`,
            title: t(`monitor.data.status.${status}`),
            value: data ? countOf(status) : "-",
          })),
        ]}
      />
      <Card
        size="small"
        title={t("monitor.data.perDay")}
        extra={<DaysPicker value={days} onChange={setDays} choices={[7, 30, 90, 365]} testId="data-days" />}
      >
        <LinesChart
          category="day"
          data={data?.perDay ?? []}
          series={[
            { key: "stories", label: t("monitor.data.made") },
            { key: "uploads", label: t("monitor.data.uploads") },
            { key: "commits", label: t("monitor.data.commits") },
          ]}
        />
      </Card>
      <Row gutter={[16, 16]}>
        <TypeAndLibraryBars
          byType={data?.byType ?? []}
          byLibrary={data?.byLibrary ?? []}
          typeSeries={stories}
          librarySeries={stories}
        />
        {TOPS.map(({ list, testId }) => (
          <ChartCard key={list} title={t(`monitor.data.${list}`)} testId={testId}>
            <BarsChart layout="vertical" category="name" data={data?.[list] ?? []} series={stories} />
          </ChartCard>
        ))}
      </Row>
    </MonitorColumn>
  );
}
