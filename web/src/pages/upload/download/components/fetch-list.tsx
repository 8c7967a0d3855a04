import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Alert, Button, Progress, Table, Tag, Typography } from "antd";
import type { ColumnsType } from "antd/es/table";
import dayjs from "dayjs";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { serverMessage } from "../../../../api/server-messages";
import { cancelUrlFetch, retryUrlFetch, type UrlFetch, urlFetchKeys, useUrlFetches } from "../../../../api/url-ingest";
import { useFeedback } from "../../../../components/feedback";

const STATE_COLORS: Record<UrlFetch["state"], string> = {
  queued: "default",
  running: "processing",
  done: "success",
  failed: "error",
  cancelled: "warning",
};

/** 1.5 MB/s, 230 KB/s: the speed as a person reads it, with the unit of the UI language. */
export function formatSpeed(
  bytesPerSecond: number,
  t: (key: string, params: Record<string, unknown>) => string,
): string {
  if (bytesPerSecond >= 1024 * 1024)
    return t("urlIngest.speed.mb", { value: (bytesPerSecond / 1024 / 1024).toFixed(1) });
  if (bytesPerSecond >= 1024) return t("urlIngest.speed.kb", { value: Math.round(bytesPerSecond / 1024) });
  return t("urlIngest.speed.b", { value: bytesPerSecond });
}

const active = (item: UrlFetch) => item.state === "queued" || item.state === "running";

/** The user's fetches with live progress: polled while any is queued or running. */
export function FetchList() {
  const { t, i18n } = useTranslation();
  const { message } = useFeedback();
  const queryClient = useQueryClient();
  const [page, setPage] = useState({ number: 0, size: 10 });
  const fetches = useUrlFetches(page, (data) => (data?.content.some(active) ? 1000 : false));
  const cancel = useMutation({
    mutationFn: cancelUrlFetch,
    onSuccess: () => {
      void message.success(t("urlIngest.cancelled"));
      void queryClient.invalidateQueries({ queryKey: urlFetchKeys.all });
    },
  });
  const reason = (item: UrlFetch) =>
    serverMessage(
      { msg: item.error ?? "", msgCode: item.errorCode, msgParams: item.errorParams },
      { t: (key, params) => t(key, params), exists: (key, params) => i18n.exists(key, params) },
    );
  const retry = useMutation({
    mutationFn: retryUrlFetch,
    onSuccess: () => {
      void message.success(t("urlIngest.retried"));
      void queryClient.invalidateQueries({ queryKey: urlFetchKeys.all });
    },
  });

  const columns: ColumnsType<UrlFetch> = [
    {
      title: t("urlIngest.colUrl"),
      dataIndex: "url",
      ellipsis: true,
      render: (url: string) => <Typography.Text copyable={{ text: url }}>{url}</Typography.Text>,
    },
    {
      title: t("urlIngest.colState"),
      dataIndex: "state",
      width: 110,
      render: (state: UrlFetch["state"]) => <Tag color={STATE_COLORS[state]}>{t(`urlIngest.state.${state}`)}</Tag>,
    },
    {
      title: t("urlIngest.colProgress"),
      width: 180,
      render: (_, item) => (
        <>
          <Progress
            percent={item.progress}
            size="small"
            status={item.state === "failed" ? "exception" : item.state === "running" ? "active" : undefined}
          />
          {item.segmentsTotal !== null && item.state !== "done" ? (
            <Typography.Text type="secondary" data-testid="url-fetch-segments">
              {t("urlIngest.segments", { done: item.segmentsDone ?? 0, total: item.segmentsTotal })}
            </Typography.Text>
          ) : null}
        </>
      ),
    },
    {
      title: t("urlIngest.colSpeed"),
      width: 110,
      render: (_, item) => (item.state === "running" ? formatSpeed(item.speed, t) : null),
    },
    {
      title: t("urlIngest.colResult"),
      render: (_, item) =>
        item.storyId ? (
          <Link to={`/frontend/search?story=${encodeURIComponent(item.libraryId)}/${encodeURIComponent(item.storyId)}`}>
            {t("urlIngest.openStory")}
          </Link>
        ) : item.error ? (
          <Typography.Text type="danger" data-testid="url-fetch-error">
            {reason(item)}
          </Typography.Text>
        ) : null,
    },
    {
      title: t("urlIngest.colCreated"),
      dataIndex: "createdAt",
      width: 170,
      render: (value: string) => dayjs(value).format("YYYY-MM-DD HH:mm:ss"),
    },
    {
      key: "actions",
      width: 100,
      render: (_, item) =>
        item.state === "failed" || item.state === "cancelled" ? (
          <Button
            size="small"
            loading={retry.isPending && retry.variables === item.id}
            onClick={() => retry.mutate(item.id)}
          >
            {t("urlIngest.retry")}
          </Button>
        ) : active(item) ? (
          <Button
            size="small"
            danger
            loading={cancel.isPending && cancel.variables === item.id}
            onClick={() => cancel.mutate(item.id)}
          >
            {t("urlIngest.cancel")}
          </Button>
        ) : null,
    },
  ];

  if (fetches.isError) return <Alert type="error" message={t("urlIngest.loadFailed")} />;
  return (
    <Table<UrlFetch>
      data-testid="url-fetch-list"
      rowKey="id"
      size="middle"
      loading={fetches.isLoading}
      columns={columns}
      dataSource={fetches.data?.content ?? []}
      locale={{ emptyText: t("urlIngest.empty") }}
      pagination={{
        current: page.number + 1,
        pageSize: page.size,
        total: fetches.data?.totalElements ?? 0,
        showSizeChanger: true,
        showTotal: (total, [from, to]) => t("crud.range", { from, to, total }),
        onChange: (current, size) => setPage({ number: current - 1, size }),
      }}
    />
  );
}
