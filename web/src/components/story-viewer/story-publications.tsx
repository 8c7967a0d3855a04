import { useQuery } from "@tanstack/react-query";
import { Alert, Grid, Space, Table, Typography } from "antd";
import type { ColumnsType } from "antd/es/table";
import dayjs from "dayjs";
import { useTranslation } from "react-i18next";
import { DELIVERY_POLL_MS, type Delivery, type DeliveryState, storyDeliveriesQuery } from "../../api/publishing";
import "../../locales/monitor";
import { DeliveryStateTags } from "../delivery-state-tags";

const OPEN: DeliveryState[] = ["pending", "in_progress", "retrying"];
const TIME = "YYYY-MM-DD HH:mm:ss";

/**
 * The viewer's 发布记录 tab: where and when the story was published — every delivery, newest first, with its
 * channel, state (a withdrawal marked), time, attempts and last error, in the publish monitor's words (its
 * strings load with this chunk). Asked again every few seconds while a delivery is still open.
 */
export function StoryPublications({ libraryId, storyId }: { libraryId: string; storyId: string }) {
  const { t } = useTranslation();
  const phone = !Grid.useBreakpoint().md;
  const history = useQuery({
    // The publish dialog's query too: publishing or withdrawing reloads it.
    ...storyDeliveriesQuery(libraryId, storyId),
    refetchInterval: (query) =>
      query.state.data?.deliveries.some((delivery) => OPEN.includes(delivery.state)) ? DELIVERY_POLL_MS : false,
  });
  const embargo = history.data?.embargoUntil;

  /** When it happened: the end of a finished delivery, the planned time of a held one, else its last change. */
  const timeOf = (delivery: Delivery) => {
    const held = OPEN.includes(delivery.state) && delivery.notBefore && dayjs(delivery.notBefore).isAfter(dayjs());
    return held ? (
      <Typography.Text type="secondary" data-testid="publication-not-before">
        {t("monitor.publish.notBefore", { time: dayjs(delivery.notBefore).format(TIME) })}
      </Typography.Text>
    ) : (
      dayjs(delivery.finishedAt ?? delivery.updatedAt).format(TIME)
    );
  };
  const stateOf = (delivery: Delivery) => <DeliveryStateTags delivery={delivery} testId="publication-state" />;
  const errorOf = (reason: string | null) =>
    reason ? (
      <Typography.Text type="danger" title={reason} data-testid="publication-error" style={{ wordBreak: "break-word" }}>
        {reason}
      </Typography.Text>
    ) : null;

  // On a phone one column carries it all, so nothing is cut or scrolled sideways.
  const columns: ColumnsType<Delivery> = phone
    ? [
        {
          title: t("monitor.publish.colChannel"),
          key: "all",
          render: (_, delivery) => (
            <Space direction="vertical" size={2}>
              <Typography.Text strong>{delivery.channelName}</Typography.Text>
              {stateOf(delivery)}
              <Typography.Text type="secondary">
                {timeOf(delivery)} · {t("monitor.publish.colAttempts")} {delivery.attempts}
              </Typography.Text>
              {errorOf(delivery.lastError)}
            </Space>
          ),
        },
      ]
    : [
        { title: t("monitor.publish.colChannel"), dataIndex: "channelName", width: 160, ellipsis: true },
        { title: t("monitor.publish.colState"), key: "state", width: 150, render: (_, d) => stateOf(d) },
        { title: t("monitor.publish.colTime"), key: "time", width: 170, render: (_, d) => timeOf(d) },
        { title: t("monitor.publish.colAttempts"), dataIndex: "attempts", width: 90 },
        { title: t("monitor.publish.colError"), dataIndex: "lastError", render: errorOf },
      ];

  return (
    <>
      {embargo && dayjs(embargo).isAfter(dayjs()) ? (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 12 }}
          message={t("monitor.publish.storyEmbargoed", { time: dayjs(embargo).format("YYYY-MM-DD HH:mm") })}
          data-testid="publication-embargo"
        />
      ) : null}
      <Table<Delivery>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={history.data?.deliveries}
        loading={history.isLoading}
        pagination={false}
        locale={{ emptyText: t("monitor.publish.storyNone") }}
        data-testid="story-publications"
      />
    </>
  );
}
