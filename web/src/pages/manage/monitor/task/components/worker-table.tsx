import { Table, Tag } from "antd";
import type { ColumnsType } from "antd/es/table";
import dayjs from "dayjs";
import { useTranslation } from "react-i18next";
import { type JobWorker, useJobWorkers } from "../../../../../api/jobs";

const STATUS_COLORS: Record<JobWorker["status"], string> = { running: "success", stopped: "default", lost: "error" };
const TIME = "YYYY-MM-DD HH:mm:ss";

/** The worker processes seen in the last day, with their last heartbeat; polled. */
export function WorkerTable() {
  const { t } = useTranslation();
  const workers = useJobWorkers();
  const columns: ColumnsType<JobWorker> = [
    { title: t("monitor.workers.colId"), dataIndex: "id", ellipsis: true },
    {
      title: t("monitor.workers.colStatus"),
      dataIndex: "status",
      width: 120,
      render: (status: JobWorker["status"]) => (
        <Tag color={STATUS_COLORS[status]}>{t(`monitor.workers.status.${status}`)}</Tag>
      ),
    },
    {
      title: t("monitor.workers.colRunning"),
      width: 140,
      render: (_, worker) => `${worker.running} / ${worker.concurrency}`,
    },
    {
      title: t("monitor.workers.colStarted"),
      dataIndex: "startedAt",
      width: 170,
      render: (value: string) => dayjs(value).format(TIME),
    },
    {
      title: t("monitor.workers.colLastSeen"),
      dataIndex: "lastSeenAt",
      width: 170,
      render: (value: string) => dayjs(value).format(TIME),
    },
  ];
  return (
    <Table<JobWorker>
      rowKey="id"
      size="small"
      columns={columns}
      dataSource={workers.data}
      loading={workers.isLoading}
      scroll={{ x: 760 }}
      pagination={false}
      locale={{ emptyText: t("monitor.workers.none") }}
      data-testid="worker-table"
    />
  );
}
