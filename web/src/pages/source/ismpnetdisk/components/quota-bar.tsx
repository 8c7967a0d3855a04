import { Progress, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { useDiskUsage } from "../../../../api/disk";
import { formatBytes } from "../../../../components/uploader/upload-logic";

/** The caller's disk usage against their quota (the trash included). */
export function QuotaBar() {
  const { t } = useTranslation();
  const usage = useDiskUsage();
  if (!usage.data) return null;
  const { usedBytes, quotaBytes } = usage.data;
  const percent = quotaBytes > 0 ? Math.min(100, Math.round((usedBytes / quotaBytes) * 100)) : 100;
  return (
    <div data-testid="disk-quota" style={{ minWidth: 180, maxWidth: 280, flex: "1 1 180px" }}>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t("disk.quota", { used: formatBytes(usedBytes), quota: formatBytes(quotaBytes) })}
      </Typography.Text>
      <Progress percent={percent} size="small" status={percent >= 95 ? "exception" : "normal"} showInfo={false} />
    </div>
  );
}
