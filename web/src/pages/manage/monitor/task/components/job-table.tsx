import { Button, Input, Progress, Select, Space, Table, Tag, Typography } from "antd";
import type { ColumnsType } from "antd/es/table";
import dayjs from "dayjs";
import { useTranslation } from "react-i18next";
import { JOB_STATES, type Job, type JobQuery, type JobState, useJobAction, useJobs } from "../../../../../api/jobs";
import { Access } from "../../../../../auth/access-component";
import { useFeedback } from "../../../../../components/feedback";
import { usePagedQuery } from "../../paged-query";

const STATE_COLORS: Record<JobState, string> = {
  queued: "default",
  running: "processing",
  succeeded: "success",
  dead: "error",
  cancelled: "warning",
};

const TIME = "YYYY-MM-DD HH:mm:ss";
const PERMISSION = "manage.monitor.task.update";

/** The jobs, newest first, filtered by state, name and a keyword; retry and cancel; polled. */
export function JobTable({ names }: { names: string[] }) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const { query, filter, pagination } = usePagedQuery<JobQuery>({ page: 0, size: 10 });
  const jobs = useJobs(query);
  const retry = useJobAction("retry");
  const cancel = useJobAction("cancel");

  const columns: ColumnsType<Job> = [
    { title: t("monitor.jobs.colName"), dataIndex: "name", width: 170, ellipsis: true },
    {
      title: t("monitor.jobs.colState"),
      dataIndex: "state",
      width: 110,
      render: (state: JobState) => <Tag color={STATE_COLORS[state]}>{t(`monitor.jobs.state.${state}`)}</Tag>,
    },
    {
      title: t("monitor.jobs.colProgress"),
      width: 150,
      render: (_, job) => (
        <Progress
          percent={job.progress}
          size="small"
          status={job.state === "dead" ? "exception" : job.state === "running" ? "active" : undefined}
        />
      ),
    },
    {
      title: t("monitor.jobs.colAttempts"),
      width: 90,
      render: (_, job) => `${job.attempts} / ${job.maxAttempts}`,
    },
    {
      title: t("monitor.jobs.colReason"),
      dataIndex: "lastError",
      ellipsis: true,
      render: (reason: string | null) =>
        reason ? (
          <Typography.Text type="danger" title={reason} data-testid="job-reason">
            {reason}
          </Typography.Text>
        ) : null,
    },
    {
      title: t("monitor.jobs.colCreated"),
      dataIndex: "createdAt",
      width: 170,
      render: (value: string) => dayjs(value).format(TIME),
    },
    {
      key: "actions",
      width: 90,
      fixed: "right",
      render: (_, job) =>
        job.state === "dead" || job.state === "cancelled" ? (
          <Access action={PERMISSION}>
            <Button
              size="small"
              loading={retry.isPending && retry.variables === job.id}
              onClick={() => retry.mutate(job.id, { onSuccess: () => void message.success(t("monitor.jobs.retried")) })}
            >
              {t("monitor.jobs.retry")}
            </Button>
          </Access>
        ) : job.state === "queued" || job.state === "running" ? (
          <Access action={PERMISSION}>
            <Button
              size="small"
              danger
              loading={cancel.isPending && cancel.variables === job.id}
              onClick={() =>
                cancel.mutate(job.id, {
                  onSuccess: (after) =>
                    void message.success(
                      t(after.state === "cancelled" ? "monitor.jobs.cancelled" : "monitor.jobs.cancelAsked"),
                    ),
                })
              }
            >
              {t("monitor.jobs.cancel")}
            </Button>
          </Access>
        ) : null,
    },
  ];

  return (
    <>
      <Space wrap style={{ marginBottom: 12 }}>
        <Select
          allowClear
          style={{ width: 140 }}
          placeholder={t("monitor.jobs.filterState")}
          aria-label={t("monitor.jobs.filterState")}
          value={query.state}
          onChange={(state?: JobState) => filter({ state })}
          options={JOB_STATES.map((state) => ({ value: state, label: t(`monitor.jobs.state.${state}`) }))}
          data-testid="job-filter-state"
        />
        <Select
          allowClear
          style={{ width: 200 }}
          placeholder={t("monitor.jobs.filterName")}
          aria-label={t("monitor.jobs.filterName")}
          value={query.name}
          onChange={(name?: string) => filter({ name })}
          options={names.map((name) => ({ value: name, label: name }))}
          data-testid="job-filter-name"
        />
        <Input.Search
          allowClear
          style={{ width: 220 }}
          placeholder={t("monitor.jobs.filterKeyword")}
          onSearch={(keyword) => filter({ keyword: keyword.trim() || undefined })}
        />
      </Space>
      <Table<Job>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={jobs.data?.content}
        loading={jobs.isLoading}
        scroll={{ x: 900 }}
        locale={{ emptyText: t("monitor.jobs.none") }}
        pagination={pagination(jobs.data?.totalElements)}
        data-testid="job-table"
      />
    </>
  );
}
