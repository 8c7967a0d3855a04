import { Button, Grid, Input, Select, Space, Table, Typography } from "antd";
import type { ColumnsType } from "antd/es/table";
import dayjs from "dayjs";
import { useTranslation } from "react-i18next";
import {
  DELIVERY_STATES,
  type Delivery,
  type DeliveryQuery,
  type DeliveryState,
  useDeliveries,
  useDeliveryAction,
} from "../../../../../api/publishing";
import { Access } from "../../../../../auth/access-component";
import { DeliveryStateTags } from "../../../../../components/delivery-state-tags";
import { useFeedback } from "../../../../../components/feedback";
import { usePagedQuery } from "../../paged-query";

const TIME = "YYYY-MM-DD HH:mm:ss";
const PERMISSION = "manage.monitor.publish.update";

/** Deliveries, newest first, filtered by state, channel and title; retry, cancel, resend; polled. */
export function DeliveryTable({
  channels,
  live = false,
}: {
  channels: { value: string; label: string }[];
  /** The live stream is up: no polling. */
  live?: boolean;
}) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const { query, filter, pagination } = usePagedQuery<DeliveryQuery>({ page: 0, size: 10 });
  const deliveries = useDeliveries(query, live);
  const retry = useDeliveryAction("retry");
  const cancel = useDeliveryAction("cancel");
  const resend = useDeliveryAction("resend");
  const done = (key: string) => () => void message.success(t(key));

  const phone = !Grid.useBreakpoint().md;
  /** The state, a kill's mark and, for a delivery held for later, when it will be sent. */
  const stateOf = (delivery: Delivery) => (
    <DeliveryStateTags delivery={delivery} testId="delivery-state">
      {(delivery.state === "pending" || delivery.state === "retrying") &&
      delivery.notBefore &&
      dayjs(delivery.notBefore).isAfter(dayjs()) ? (
        // Held by "publish at", an embargo or a retry's wait: when it will be sent.
        <Typography.Text type="secondary" data-testid="delivery-not-before">
          {t("monitor.publish.notBefore", { time: dayjs(delivery.notBefore).format(TIME) })}
        </Typography.Text>
      ) : null}
    </DeliveryStateTags>
  );

  // On a phone the story column also names the channel and the state, so they show without scrolling sideways.
  const columns: ColumnsType<Delivery> = [
    {
      title: t("monitor.publish.colStory"),
      dataIndex: "storyTitle",
      width: phone ? 170 : 200,
      ellipsis: !phone,
      render: (title: string, delivery) =>
        phone ? (
          <Space direction="vertical" size={2}>
            <Typography.Text>{title}</Typography.Text>
            <Typography.Text type="secondary">{delivery.channelName}</Typography.Text>
            {stateOf(delivery)}
          </Space>
        ) : (
          title
        ),
    },
    ...(phone
      ? []
      : [
          { title: t("monitor.publish.colChannel"), dataIndex: "channelName", width: 140, ellipsis: true },
          {
            title: t("monitor.publish.colState"),
            dataIndex: "state",
            width: 150,
            render: (_: DeliveryState, delivery: Delivery) => stateOf(delivery),
          },
        ]),
    { title: t("monitor.publish.colAttempts"), dataIndex: "attempts", width: 80 },
    {
      title: t("monitor.publish.colError"),
      dataIndex: "lastError",
      ellipsis: true,
      render: (reason: string | null) =>
        reason ? (
          <Typography.Text type="danger" title={reason} data-testid="delivery-error">
            {reason}
          </Typography.Text>
        ) : null,
    },
    {
      title: t("monitor.publish.colDuration"),
      dataIndex: "durationMs",
      width: 100,
      render: (ms: number | null) => (ms === null ? "" : `${(ms / 1000).toFixed(1)} s`),
    },
    {
      title: t("monitor.publish.colCreated"),
      dataIndex: "createdAt",
      width: 170,
      render: (value: string) => dayjs(value).format(TIME),
    },
    {
      key: "actions",
      width: 170,
      fixed: "right",
      render: (_, delivery) => (
        <Access action={PERMISSION}>
          <Space size={4}>
            {delivery.state === "failed" || delivery.state === "cancelled" ? (
              <Button
                size="small"
                onClick={() => retry.mutate(delivery.id, { onSuccess: done("monitor.publish.retried") })}
              >
                {t("monitor.publish.retry")}
              </Button>
            ) : null}
            {delivery.state === "pending" || delivery.state === "retrying" ? (
              <Button
                size="small"
                danger
                onClick={() => cancel.mutate(delivery.id, { onSuccess: done("monitor.publish.cancelled") })}
              >
                {t("monitor.publish.cancel")}
              </Button>
            ) : null}
            {delivery.state === "succeeded" ? (
              <Button
                size="small"
                onClick={() => resend.mutate(delivery.id, { onSuccess: done("monitor.publish.resent") })}
              >
                {t("monitor.publish.resend")}
              </Button>
            ) : null}
          </Space>
        </Access>
      ),
    },
  ];

  return (
    <>
      <Space wrap style={{ marginBottom: 12 }}>
        <Select
          allowClear
          style={{ width: 140 }}
          placeholder={t("monitor.publish.filterState")}
          aria-label={t("monitor.publish.filterState")}
          onChange={(state?: DeliveryState) => filter({ state })}
          options={DELIVERY_STATES.map((state) => ({ value: state, label: t(`publish.state.${state}`) }))}
        />
        <Select
          allowClear
          style={{ width: 180 }}
          placeholder={t("monitor.publish.filterChannel")}
          aria-label={t("monitor.publish.filterChannel")}
          onChange={(channelId?: string) => filter({ channelId })}
          options={channels}
        />
        <Input.Search
          allowClear
          style={{ width: 200 }}
          placeholder={t("monitor.publish.filterKeyword")}
          onSearch={(keyword) => filter({ keyword: keyword.trim() || undefined })}
        />
      </Space>
      <Table<Delivery>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={deliveries.data?.content}
        loading={deliveries.isLoading}
        scroll={{ x: 1000 }}
        locale={{ emptyText: t("empty.manage.monitor.publish") }}
        pagination={pagination(deliveries.data?.totalElements)}
        data-testid="delivery-table"
      />
    </>
  );
}
