import { Alert, Card, Col, Row, Statistic, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { JOB_STATES, useJobSummary } from "../../../../api/jobs";
import { BarsChart } from "../../../../components/charts";
import "../../../../locales/monitor";
import { JobTable } from "./components/job-table";
import { WorkerTable } from "./components/worker-table";

const STATE_CHART_COLORS = {
  queued: "#8c8c8c",
  running: "#1890ff",
  succeeded: "#52c41a",
  dead: "#f5222d",
  cancelled: "#faad14",
};

/** The task monitor (/manage/monitor/task): the job queue's counts, its jobs and its workers, updated live. */
export default function ManageMonitorTaskPage() {
  const { t } = useTranslation();
  const summary = useJobSummary();
  const byName = summary.data?.byName ?? [];
  return (
    <div style={{ display: "flex", flexDirection: "column", gap: 16 }}>
      {summary.isError ? <Alert type="error" message={t("monitor.loadFailed")} /> : null}
      <Row gutter={[16, 16]}>
        {JOB_STATES.map((state) => (
          <Col key={state} xs={12} sm={8} lg={4}>
            <Card size="small" data-testid={`job-count-${state}`}>
              <Statistic
                title={t(`monitor.jobs.state.${state}`)}
                value={summary.data?.byState[state] ?? 0}
                loading={summary.isLoading}
                valueStyle={
                  state === "dead" && (summary.data?.byState.dead ?? 0) > 0 ? { color: "#f5222d" } : undefined
                }
              />
            </Card>
          </Col>
        ))}
      </Row>
      {byName.length > 0 ? (
        <Card title={t("monitor.jobs.byName")} size="small">
          <BarsChart
            layout="vertical"
            height={Math.max(160, 40 * byName.length + 60)}
            category="name"
            data={byName.map((row) => ({ name: row.name, ...row.counts }))}
            series={JOB_STATES.map((state) => ({
              key: state,
              label: t(`monitor.jobs.state.${state}`),
              color: STATE_CHART_COLORS[state],
            }))}
          />
        </Card>
      ) : null}
      <Card
        title={t("monitor.jobs.list")}
        size="small"
        extra={<Typography.Text type="secondary">{t("monitor.refreshing")}</Typography.Text>}
      >
        <JobTable names={byName.map((row) => row.name)} />
      </Card>
      <Card title={t("monitor.jobs.workers")} size="small">
        <WorkerTable />
      </Card>
    </div>
  );
}
