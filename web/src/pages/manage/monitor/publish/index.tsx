import { Alert, Badge, Card, Col, Row, Statistic, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { useChannelStats, useDeliveryStream } from "../../../../api/publishing";
import "../../../../locales/monitor";
import { DeliveryTable } from "./components/delivery-table";

/**
 * The publish monitor (/manage/monitor/publish): per channel success rate and last error, then every delivery;
 * updated live by the server's event stream, polled while the stream is down.
 */
export default function ManageMonitorPublishPage() {
  const { t } = useTranslation();
  const stream = useDeliveryStream();
  const live = stream === "live";
  const stats = useChannelStats(live);
  const channels = stats.data ?? [];
  return (
    <div style={{ display: "flex", flexDirection: "column", gap: 16 }}>
      {stats.isError ? <Alert type="error" message={t("monitor.loadFailed")} /> : null}
      <Row gutter={[16, 16]}>
        {channels.map((channel) => (
          <Col key={channel.channelId} xs={24} sm={12} lg={8}>
            <Card size="small" title={channel.channelName} data-testid="channel-stats">
              <Statistic
                title={t("monitor.publish.successRate")}
                value={channel.successRate === null ? "—" : Math.round(channel.successRate * 100)}
                suffix={channel.successRate === null ? undefined : "%"}
              />
              <Typography.Text type="secondary">
                {t("monitor.publish.counts", {
                  total: channel.total,
                  succeeded: channel.succeeded,
                  failed: channel.failed,
                  open: channel.open,
                })}
              </Typography.Text>
              {channel.lastError ? (
                <Typography.Paragraph
                  type="danger"
                  ellipsis={{ rows: 2 }}
                  title={channel.lastError}
                  style={{ margin: 0 }}
                >
                  {t("monitor.publish.lastError")}: {channel.lastError}
                </Typography.Paragraph>
              ) : null}
            </Card>
          </Col>
        ))}
      </Row>
      <Card
        title={t("monitor.publish.list")}
        size="small"
        extra={
          <span data-testid="monitor-live" data-live={live} data-state={stream}>
            {stream === "live" ? (
              <Badge status="processing" text={t("monitor.live")} />
            ) : stream === "down" ? (
              <Typography.Text type="secondary">{t("monitor.liveLost")}</Typography.Text>
            ) : (
              <Badge status="default" text={t("monitor.liveConnecting")} />
            )}
          </span>
        }
      >
        <DeliveryTable channels={channels.map((c) => ({ value: c.channelId, label: c.channelName }))} live={live} />
      </Card>
    </div>
  );
}
