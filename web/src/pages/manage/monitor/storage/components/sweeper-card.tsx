import { Card, Descriptions, Empty, Table, Typography } from "antd";
import { useTranslation } from "react-i18next";
import type { StorageMonitor } from "../../../../../api/monitor";

type SweeperReport = NonNullable<StorageMonitor["sweeper"]>;
type TargetFigures = SweeperReport["targets"][number];

/** What the sweeper found in each storage target: an unreachable one in red, one sharing its place with another named. */
function TargetTable({ targets }: { targets: TargetFigures[] }) {
  const { t } = useTranslation();
  const nameOf = (target: Pick<TargetFigures, "targetId" | "name">) =>
    target.targetId === "builtin" ? t("storage.builtIn") : target.name;
  const number = (key: "scanned" | "deleted" | "young" | "moving" | "missing") => ({
    key,
    dataIndex: key,
    title: t(`monitor.sweeper.target.${key}`),
    align: "right" as const,
  });
  return (
    <Table<TargetFigures>
      size="small"
      rowKey="targetId"
      pagination={false}
      // One line per cell; a phone scrolls the table sideways.
      scroll={{ x: "max-content" }}
      style={{ marginTop: 8 }}
      data-testid="storage-sweeper-targets"
      dataSource={targets}
      columns={[
        { key: "name", title: t("monitor.sweeper.target.name"), render: (_, target) => nameOf(target) },
        number("scanned"),
        number("deleted"),
        number("young"),
        number("moving"),
        {
          ...number("missing"),
          render: (missing: number) => (
            <Typography.Text type={missing > 0 ? "danger" : undefined}>{missing}</Typography.Text>
          ),
        },
        {
          key: "state",
          title: t("monitor.sweeper.target.state"),
          render: (_, target) => {
            const same = target.sameAs ? targets.find((other) => other.targetId === target.sameAs) : undefined;
            if (target.error)
              return (
                <Typography.Text type="danger" title={target.error.message} data-testid="storage-sweeper-target-error">
                  {t(`monitor.sweeper.target.${target.error.reason}`)}
                </Typography.Text>
              );
            if (same) return t("monitor.sweeper.target.sameAs", { name: nameOf(same) });
            return t("monitor.sweeper.target.ok");
          },
        },
      ]}
    />
  );
}

/** The orphan sweeper's last report (the maintenance job, every six hours). */
export function SweeperCard({ report, loading }: { report: SweeperReport | null | undefined; loading: boolean }) {
  const { t } = useTranslation();
  return (
    <Card size="small" title={t("monitor.sweeper.title")} loading={loading} data-testid="storage-sweeper">
      {report ? (
        <>
          <Descriptions
            size="small"
            column={{ xs: 1, sm: 2, lg: 4 }}
            items={[
              { key: "at", label: t("monitor.sweeper.at"), children: new Date(report.finishedAt).toLocaleString() },
              { key: "scanned", label: t("monitor.sweeper.scanned"), children: report.blobsScanned },
              { key: "deleted", label: t("monitor.sweeper.deleted"), children: report.orphansDeleted },
              { key: "young", label: t("monitor.sweeper.young"), children: report.orphansYoung },
              {
                key: "missing",
                label: t("monitor.sweeper.missing"),
                children: (
                  <Typography.Text type={report.blobsMissing > 0 ? "danger" : undefined}>
                    {report.blobsMissing}
                  </Typography.Text>
                ),
              },
              { key: "uploads", label: t("monitor.sweeper.uploads"), children: report.abandonedUploads },
              { key: "trash", label: t("monitor.sweeper.trash"), children: report.diskTrashPurged },
              { key: "copies", label: t("monitor.sweeper.copies"), children: report.outgoingCopiesDeleted },
            ]}
          />
          {report.targets.length > 0 ? <TargetTable targets={report.targets} /> : null}
          {report.missingKeys.length > 0 ? (
            <Typography.Paragraph type="danger" style={{ marginTop: 8, marginBottom: 0 }}>
              {t("monitor.sweeper.missingHint")}
              <br />
              {report.missingKeys.map((key) => (
                <Typography.Text key={key} code copyable={{ text: key }} style={{ display: "block" }}>
                  {key}
                </Typography.Text>
              ))}
            </Typography.Paragraph>
          ) : null}
        </>
      ) : (
        <Empty description={t("monitor.sweeper.never")} />
      )}
    </Card>
  );
}
