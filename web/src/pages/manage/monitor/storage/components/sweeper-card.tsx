import { Card, Descriptions, Empty, Typography } from "antd";
import { useTranslation } from "react-i18next";
import type { StorageMonitor } from "../../../../../api/monitor";

type SweeperReport = NonNullable<StorageMonitor["sweeper"]>;

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
