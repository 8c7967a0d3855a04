import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, App, Button, Progress, Table, Tag, Typography } from "antd";
import type { ColumnsType } from "antd/es/table";
import dayjs from "dayjs";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { listUrlFetches, retryUrlFetch, type UrlFetch } from "../../../../api/url-ingest";

const STATE_COLORS: Record<UrlFetch["state"], string> = {
  queued: "default",
  running: "processing",
  done: "success",
  failed: "error",
};

/** 1.5 MB/s, 230 KB/s: the speed as a person reads it. */
export function formatSpeed(bytesPerSecond: number): string {
  if (bytesPerSecond >= 1024 * 1024) return `${(bytesPerSecond / 1024 / 1024).toFixed(1)} MB/s`;
  if (bytesPerSecond >= 1024) return `${Math.round(bytesPerSecond / 1024)} KB/s`;
  return `${bytesPerSecond} B/s`;
}

/** The user's fetches with live progress: polled while any is queued or running. */
export function FetchList() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [page, setPage] = useState({ number: 0, size: 10 });
  const fetches = useQuery({
    queryKey: ["url-fetches", page],
    queryFn: () => listUrlFetches(page.number, page.size),
    refetchInterval: (query) =>
      query.state.data?.content.some((item) => item.state === "queued" || item.state === "running") ? 1000 : false,
  });
  const retry = useMutation({
    mutationFn: retryUrlFetch,
    onSuccess: () => {
      void message.success(t("urlIngest.retried"));
      void queryClient.invalidateQueries({ queryKey: ["url-fetches"] });
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
        <Progress
          percent={item.progress}
          size="small"
          status={item.state === "failed" ? "exception" : item.state === "running" ? "active" : undefined}
        />
      ),
    },
    {
      title: t("urlIngest.colSpeed"),
      width: 110,
      render: (_, item) => (item.state === "running" ? formatSpeed(item.speed) : null),
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
            {item.error}
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
      width: 90,
      render: (_, item) =>
        item.state === "failed" ? (
          <Button
            size="small"
            loading={retry.isPending && retry.variables === item.id}
            onClick={() => retry.mutate(item.id)}
          >
            {t("urlIngest.retry")}
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
