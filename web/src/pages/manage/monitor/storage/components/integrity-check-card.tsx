import { Button, Card, Empty, message, Popconfirm, Progress, Space, Table, Tag, Typography } from "antd";
import { useTranslation } from "react-i18next";
import {
  type IntegrityCheck,
  type IntegrityProblem,
  isCheckActive,
  useCancelIntegrityCheck,
  useIntegrityProblems,
  useLatestIntegrityCheck,
  useStartIntegrityCheck,
} from "../../../../../api/integrity-checks";
import { Access } from "../../../../../auth/access-component";
import { formatSize } from "../../../../../components/story-viewer/format";

const STATE_COLOR: Record<IntegrityCheck["state"], string> = {
  queued: "default",
  running: "processing",
  succeeded: "success",
  failed: "error",
  cancelled: "warning",
};
const KIND_COLOR: Record<IntegrityProblem["kind"], string> = {
  missing: "red",
  mismatched: "volcano",
  unreadable: "orange",
};

const problemsOf = (check: IntegrityCheck) => check.missing + check.mismatched + check.unreadable;

/** The storage monitor's integrity check: start it, watch its progress, read what it found. */
export function IntegrityCheckCard() {
  const { t } = useTranslation();
  const latest = useLatestIntegrityCheck();
  const start = useStartIntegrityCheck();
  const cancel = useCancelIntegrityCheck();
  const check = latest.data ?? null;
  const active = isCheckActive(check);
  const percent = check ? Math.floor((check.checkedFiles / Math.max(check.totalFiles, 1)) * 100) : 0;
  return (
    <Card
      size="small"
      title={t("monitor.check.title")}
      data-testid="integrity-check"
      extra={
        <Access action="manage.monitor.storage.add">
          {active && check ? (
            <Popconfirm title={t("monitor.check.cancelConfirm")} onConfirm={() => cancel.mutate(check.id)}>
              <Button size="small" loading={cancel.isPending}>
                {t("monitor.check.cancel")}
              </Button>
            </Popconfirm>
          ) : (
            <Button
              size="small"
              type="primary"
              loading={start.isPending}
              onClick={() => start.mutate(undefined, { onSuccess: () => message.info(t("monitor.check.started")) })}
            >
              {t("monitor.check.start")}
            </Button>
          )}
        </Access>
      }
    >
      <Typography.Paragraph type="secondary" style={{ marginBottom: 12 }}>
        {t("monitor.check.description")}
      </Typography.Paragraph>
      {check ? <CheckProgress check={check} percent={percent} /> : <Empty description={t("monitor.check.never")} />}
      {check && !active && problemsOf(check) > 0 ? <ProblemTable checkId={check.id} /> : null}
    </Card>
  );
}

function CheckProgress({ check, percent }: { check: IntegrityCheck; percent: number }) {
  const { t } = useTranslation();
  const problems = problemsOf(check);
  const status =
    check.state === "failed" ? "exception" : check.state === "succeeded" && problems === 0 ? "success" : undefined;
  return (
    <Space direction="vertical" style={{ width: "100%" }} size={8}>
      <Space wrap size={[8, 4]}>
        <Tag color={STATE_COLOR[check.state]} data-testid="integrity-check-state">
          {t(`monitor.check.state.${check.state}`)}
        </Tag>
        <Typography.Text type="secondary">
          {t("monitor.check.startedAt", { time: new Date(check.createTime).toLocaleString() })}
        </Typography.Text>
      </Space>
      <Progress
        percent={check.state === "succeeded" ? 100 : percent}
        status={isCheckActive(check) ? "active" : status}
        aria-label={t("monitor.check.title")}
      />
      <Typography.Text data-testid="integrity-check-counts">
        {t("monitor.check.checked", {
          checked: check.checkedFiles,
          total: check.totalFiles,
          size: formatSize(check.checkedBytes),
        })}
      </Typography.Text>
      {check.state === "succeeded" && problems === 0 ? (
        <Typography.Text type="success" data-testid="integrity-check-result">
          {t("monitor.check.allIntact", { count: check.checkedFiles })}
        </Typography.Text>
      ) : null}
      {problems > 0 ? (
        <Space wrap size={[8, 4]} data-testid="integrity-check-result">
          {(["missing", "mismatched", "unreadable"] as const).map((kind) =>
            check[kind] > 0 ? (
              <Tag key={kind} color={KIND_COLOR[kind]}>
                {t(`monitor.check.kind.${kind}`)} {check[kind]}
              </Tag>
            ) : null,
          )}
        </Space>
      ) : null}
      {check.error ? <Typography.Text type="danger">{check.error}</Typography.Text> : null}
    </Space>
  );
}

function ProblemTable({ checkId }: { checkId: string }) {
  const { t } = useTranslation();
  const problems = useIntegrityProblems(checkId);
  const rows = problems.data?.pages.flatMap((page) => page.problems) ?? [];
  return (
    <div style={{ marginTop: 12 }}>
      <Table<IntegrityProblem>
        size="small"
        rowKey="key"
        loading={problems.isLoading}
        dataSource={rows}
        pagination={false}
        scroll={{ x: 640 }}
        data-testid="integrity-problems"
        columns={[
          {
            title: t("monitor.check.colKind"),
            dataIndex: "kind",
            width: 110,
            render: (kind: IntegrityProblem["kind"]) => (
              <Tag color={KIND_COLOR[kind]}>{t(`monitor.check.kind.${kind}`)}</Tag>
            ),
          },
          {
            title: t("monitor.check.colKey"),
            dataIndex: "key",
            render: (key: string) => <Typography.Text copyable={{ text: key }}>{key}</Typography.Text>,
          },
          {
            title: t("monitor.check.colExpected"),
            key: "expected",
            render: (_, row) => `${formatSize(row.expectedSize)} · ${row.expectedSha256.slice(0, 12)}`,
          },
          {
            title: t("monitor.check.colFound"),
            key: "found",
            render: (_, row) =>
              row.kind === "mismatched" && row.actualSha256 !== null
                ? `${formatSize(row.actualSize ?? 0)} · ${row.actualSha256.slice(0, 12)}`
                : (row.detail ?? "—"),
          },
        ]}
      />
      {problems.hasNextPage ? (
        <Button style={{ marginTop: 8 }} onClick={() => problems.fetchNextPage()} loading={problems.isFetchingNextPage}>
          {t("monitor.check.more")}
        </Button>
      ) : null}
    </div>
  );
}
