import { Alert, Card, Col, Row } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useDataMonitor } from "../../../../api/monitor";
import { BarsChart, LinesChart } from "../../../../components/charts";
import "../../../../locales/monitor";
import { DaysPicker, FigureCard } from "../components/monitor-parts";

const STATUSES = ["draft", "committed", "published"] as const;

/** The data monitor (/manage/monitor/data): stories by type, status and library; per day; top authors and sources. */
export default function ManageMonitorDataPage() {
  const { t } = useTranslation();
  const [days, setDays] = useState(30);
  const monitor = useDataMonitor(days);
  const data = monitor.data;
  const countOf = (status: (typeof STATUSES)[number]) =>
    data?.byStatus.find((row) => row.status === status)?.stories ?? 0;
  const storiesLabel = t("monitor.data.stories");
  return (
    <div style={{ display: "flex", flexDirection: "column", gap: 16 }}>
      {monitor.isError ? <Alert type="error" message={t("monitor.loadFailed")} /> : null}
      <Row gutter={[16, 16]}>
        <FigureCard
          testId="data-total"
          title={t("monitor.data.total")}
          value={data?.stories ?? "-"}
          loading={monitor.isLoading}
        />
        {STATUSES.map((status) => (
          <FigureCard
            key={status}
            testId={`data-status-${status}`}
            title={t(`monitor.data.status.${status}`)}
            value={data ? countOf(status) : "-"}
            loading={monitor.isLoading}
          />
        ))}
      </Row>
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
        <Col xs={24} lg={12}>
          <Card size="small" title={t("monitor.storage.byType")}>
            <BarsChart
              category="label"
              data={(data?.byType ?? []).map((row) => ({
                label: t(`monitor.storage.type.${row.type}`),
                stories: row.stories,
              }))}
              series={[{ key: "stories", label: storiesLabel }]}
            />
          </Card>
        </Col>
        <Col xs={24} lg={12}>
          <Card size="small" title={t("monitor.storage.byLibraryChart")}>
            <BarsChart
              layout="vertical"
              category="label"
              data={(data?.byLibrary ?? []).map((row) => ({
                label: row.libraryName ?? row.libraryId,
                stories: row.stories,
              }))}
              series={[{ key: "stories", label: storiesLabel }]}
            />
          </Card>
        </Col>
        <Col xs={24} lg={12}>
          <Card size="small" title={t("monitor.data.topAuthors")} data-testid="data-top-authors">
            <BarsChart
              layout="vertical"
              category="name"
              data={data?.topAuthors ?? []}
              series={[{ key: "stories", label: storiesLabel }]}
            />
          </Card>
        </Col>
        <Col xs={24} lg={12}>
          <Card size="small" title={t("monitor.data.topSources")} data-testid="data-top-sources">
            <BarsChart
              layout="vertical"
              category="name"
              data={data?.topSources ?? []}
              series={[{ key: "stories", label: storiesLabel }]}
            />
          </Card>
        </Col>
      </Row>
    </div>
  );
}
