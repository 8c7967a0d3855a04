import { Card, Row } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useStorageMonitor } from "../../../../api/monitor";
import { LinesChart } from "../../../../components/charts";
import { formatSize } from "../../../../components/story-viewer/format";
import "../../../../locales/monitor";
import { DaysPicker, FigureRow, MonitorColumn, TypeAndLibraryBars } from "../components/monitor-parts";
import { IntegrityCheckCard } from "./components/integrity-check-card";
import { LibraryTable, VolumeTable } from "./components/storage-tables";
import { SweeperCard } from "./components/sweeper-card";

const PARTS = ["original", "rendition", "version"] as const;

/** The storage monitor (/manage/monitor/storage, the back area's landing page): what is stored, where, how it grows. */
export default function ManageMonitorStoragePage() {
  const { t } = useTranslation();
  const [days, setDays] = useState(30);
  const storage = useStorageMonitor(days);
  const data = storage.data;
  return (
    <MonitorColumn failed={storage.isError}>
      <FigureRow
        loading={storage.isLoading}
        figures={[
          {
            testId: "storage-total",
            title: t("monitor.storage.total"),
            value: data ? formatSize(data.totals.bytes) : "-",
          },
          ...PARTS.map((part) => ({
            testId: `storage-part-${part}`,
            title: t(`monitor.storage.part.${part}`),
            value: data ? formatSize(data.totals[part].bytes) : "-",
            suffix: data ? t("monitor.storage.files", { count: data.totals[part].files }) : null,
            valueStyle: { fontSize: 20 },
          })),
        ]}
      />
      <Card
        size="small"
        title={t("monitor.storage.growth")}
        extra={<DaysPicker value={days} onChange={setDays} choices={[7, 30, 90]} />}
      >
        <LinesChart
          category="day"
          data={data?.growth ?? []}
          series={[{ key: "bytes", label: t("monitor.storage.colBytes") }]}
          format={formatSize}
        />
      </Card>
      <Row gutter={[16, 16]}>
        <TypeAndLibraryBars
          byType={data?.byType ?? []}
          byLibrary={data?.byLibrary ?? []}
          typeSeries={[{ key: "bytes", label: t("monitor.storage.colBytes") }]}
          librarySeries={PARTS.map((part) => ({ key: part, label: t(`monitor.storage.part.${part}`) }))}
          format={formatSize}
        />
      </Row>
      <Card size="small" title={t("monitor.storage.byLibrary")}>
        <LibraryTable rows={data?.byLibrary ?? []} />
      </Card>
      <Card size="small" title={t("monitor.storage.volumes")}>
        <VolumeTable rows={data?.volumes ?? []} />
      </Card>
      <SweeperCard report={data?.sweeper} loading={storage.isLoading} />
      <IntegrityCheckCard />
    </MonitorColumn>
  );
}
