import { useQuery } from "@tanstack/react-query";
import { Alert, Button, Card, Col, DatePicker, Row, Segmented, Space, Statistic, Table } from "antd";
import dayjs, { type Dayjs } from "dayjs";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { exportTable } from "../../../../api/exports";
import {
  type SearchMiss,
  type UnusedStory,
  USAGE_LIMIT,
  type UsageDimension,
  type UsagePeriod,
  type UsageRow,
  useSearchMisses,
  useUnusedStories,
  useUsage,
} from "../../../../api/monitor";
import { fetchUsedInfo, statisticsKeys } from "../../../../api/statistics";
import "../../../../locales/monitor";

const DIMENSIONS: UsageDimension[] = ["story", "user", "library", "author", "source"];
const TYPES = ["photo", "video", "audio", "composite"] as const;
/** The server's bound on a period. */
const MAX_DAYS = 400;

function periodOf([from, to]: [Dayjs, Dayjs]): UsagePeriod {
  return { from: from.startOf("day").toISOString(), to: to.add(1, "day").startOf("day").toISOString() };
}

type ExportFormat = "xlsx" | "csv";

/** The two export buttons of a table: Excel and CSV. */
function ExportButtons({ run, testId }: { run: (format: ExportFormat) => Promise<void>; testId: string }) {
  const { t } = useTranslation();
  const [exporting, setExporting] = useState<ExportFormat | null>(null);
  const click = async (format: ExportFormat) => {
    setExporting(format);
    try {
      await run(format);
    } catch {
      // The client reported the failure.
    } finally {
      setExporting(null);
    }
  };
  return (
    <Space wrap>
      <Button onClick={() => click("xlsx")} loading={exporting === "xlsx"} data-testid={testId}>
        {t("monitor.usage.export")}
      </Button>
      <Button onClick={() => click("csv")} loading={exporting === "csv"} data-testid={`${testId}-csv`}>
        {t("monitor.usage.exportCsv")}
      </Button>
    </Space>
  );
}

/**
 * Usage statistics (/backend/setting/usedStatistic): views, downloads, publishes and shares over a period,
 * searches with no results, export, stories never used.
 */
export default function BackendSettingUsedStatisticPage() {
  const { t } = useTranslation();
  const [range, setRange] = useState<[Dayjs, Dayjs]>(() => [dayjs().subtract(29, "day"), dayjs()]);
  const [by, setBy] = useState<UsageDimension>("story");
  const period = useMemo(() => periodOf(range), [range]);
  const usage = useUsage(period, by);
  const unused = useUnusedStories(period);
  const misses = useSearchMisses(period);
  const counts = useQuery({ queryKey: statisticsKeys.usedInfo(), queryFn: fetchUsedInfo });

  const columns = [
    {
      key: "name",
      title: t(`monitor.usage.by.${by}`),
      ellipsis: true,
      render: (_: unknown, row: UsageRow) => row.label ?? row.key,
    },
    {
      key: "views",
      title: t("monitor.usage.views"),
      align: "right" as const,
      render: (_: unknown, row: UsageRow) => row.views,
    },
    {
      key: "downloads",
      title: t("monitor.usage.downloads"),
      align: "right" as const,
      render: (_: unknown, row: UsageRow) => row.downloads,
    },
    {
      key: "publishes",
      title: t("monitor.usage.publishes"),
      align: "right" as const,
      render: (_: unknown, row: UsageRow) => row.publishes,
    },
    {
      key: "shares",
      title: t("monitor.usage.shares"),
      align: "right" as const,
      render: (_: unknown, row: UsageRow) => row.shares,
    },
  ];

  const missColumns = [
    {
      key: "query",
      title: t("monitor.usage.searchQuery"),
      ellipsis: true,
      render: (_: unknown, row: SearchMiss) => row.query,
    },
    {
      key: "searches",
      title: t("monitor.usage.searchCount"),
      align: "right" as const,
      render: (_: unknown, row: SearchMiss) => row.searches,
    },
    {
      key: "lastAt",
      title: t("monitor.usage.searchLast"),
      responsive: ["sm" as const],
      render: (_: unknown, row: SearchMiss) => dayjs(row.lastAt).format("YYYY-MM-DD HH:mm"),
    },
  ];
  const periodName = `${range[0].format("YYYY-MM-DD")}~${range[1].format("YYYY-MM-DD")}`;
  const exportUsage = (format: ExportFormat) =>
    exportTable({
      table: "usage",
      format,
      filter: { ...period, by, limit: USAGE_LIMIT },
      columns: columns.map((column) => ({ key: column.key, title: column.title })),
      fileName: `${t("menu.backend.setting.usedStatistic")} ${periodName}`,
    });
  const exportMisses = (format: ExportFormat) =>
    exportTable({
      table: "searches",
      format,
      filter: { ...period, limit: USAGE_LIMIT },
      columns: missColumns.map((column) => ({ key: column.key, title: column.title })),
      fileName: `${t("monitor.usage.searches")} ${periodName}`,
    });

  return (
    <div style={{ display: "flex", flexDirection: "column", gap: 16 }}>
      <Row gutter={[16, 16]}>
        {TYPES.map((type) => (
          <Col key={type} xs={12} md={6}>
            <Card size="small" data-testid={`usage-count-${type}`}>
              <Statistic
                title={t(`monitor.storage.type.${type}`)}
                value={counts.data ? counts.data[type] : "-"}
                loading={counts.isLoading}
              />
            </Card>
          </Col>
        ))}
      </Row>
      <Card
        size="small"
        title={t("monitor.usage.title")}
        extra={<ExportButtons run={exportUsage} testId="usage-export" />}
      >
        <Space wrap style={{ marginBottom: 12 }}>
          <DatePicker.RangePicker
            value={range}
            allowClear={false}
            disabledDate={(day) => day.isAfter(dayjs(), "day")}
            onChange={(value) => {
              const [from, to] = value ?? [];
              if (!from || !to) return;
              // The server answers at most 400 days: a longer choice keeps its end and is cut.
              setRange([to.diff(from, "day") >= MAX_DAYS ? to.subtract(MAX_DAYS - 1, "day") : from, to]);
            }}
            data-testid="usage-range"
          />
          <Segmented
            value={by}
            onChange={(value) => setBy(value as UsageDimension)}
            options={DIMENSIONS.map((value) => ({ value, label: t(`monitor.usage.by.${value}`) }))}
            data-testid="usage-by"
          />
        </Space>
        {usage.isError ? <Alert type="error" message={t("monitor.loadFailed")} /> : null}
        <Table<UsageRow>
          rowKey="key"
          size="small"
          loading={usage.isFetching}
          dataSource={usage.data ?? []}
          columns={columns}
          pagination={{ pageSize: 20, showSizeChanger: false, hideOnSinglePage: true }}
          scroll={{ x: "max-content" }}
          locale={{ emptyText: t("monitor.usage.none") }}
          data-testid="usage-table"
        />
      </Card>
      <Card
        size="small"
        title={t("monitor.usage.searches")}
        extra={<ExportButtons run={exportMisses} testId="usage-searches-export" />}
      >
        {misses.isError ? <Alert type="error" message={t("monitor.loadFailed")} /> : null}
        <Table<SearchMiss>
          rowKey="query"
          size="small"
          loading={misses.isFetching}
          dataSource={misses.data ?? []}
          columns={missColumns}
          pagination={{ pageSize: 10, showSizeChanger: false, hideOnSinglePage: true }}
          scroll={{ x: "max-content" }}
          locale={{ emptyText: t("monitor.usage.searchesNone") }}
          data-testid="usage-searches"
        />
      </Card>
      <Card size="small" title={t("monitor.usage.unused")}>
        {unused.isError ? <Alert type="error" message={t("monitor.loadFailed")} /> : null}
        <Table<UnusedStory>
          rowKey="id"
          size="small"
          loading={unused.isFetching}
          dataSource={unused.data ?? []}
          pagination={{ pageSize: 10, showSizeChanger: false, hideOnSinglePage: true }}
          scroll={{ x: "max-content" }}
          columns={[
            {
              key: "title",
              title: t("monitor.usage.colTitle"),
              ellipsis: true,
              render: (_, row) => row.title || row.id,
            },
            { key: "library", title: t("monitor.storage.colLibrary"), render: (_, row) => row.libraryId },
            {
              key: "authors",
              title: t("monitor.usage.by.author"),
              responsive: ["md"],
              render: (_, row) => row.authors.join(", "),
            },
            { key: "source", title: t("monitor.usage.by.source"), responsive: ["md"], render: (_, row) => row.source },
          ]}
          data-testid="usage-unused"
        />
      </Card>
    </div>
  );
}
