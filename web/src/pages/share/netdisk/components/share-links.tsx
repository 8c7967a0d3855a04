import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Button, Grid, Popconfirm, Space, Table, Tag, Typography } from "antd";
import dayjs from "dayjs";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import {
  revokeShare,
  SHARE_STATE_COLORS,
  type ShareItem,
  type ShareListQuery,
  shareKeys,
  useShares,
} from "../../../../api/shares";
import { pagerWhenMany } from "../../../../components/pager";
import { ShareVisitsButton } from "../../../../components/share-dialog/share-visits";

const PAGE_SIZE = 10;

/**
 * Share links on /share/netdisk: mine, or (administrators, `all`) everyone's
 * with the owner; what each points at, expiry, views and downloads, last
 * visit; visitor log; revoke. `filters` narrow the list (state, words, owner).
 */
export function ShareLinks({
  all = false,
  filters = {},
}: {
  all?: boolean;
  filters?: Omit<ShareListQuery, "page" | "size" | "all">;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(0);
  const filterKey = JSON.stringify(filters);
  const [seenFilters, setSeenFilters] = useState(filterKey);
  if (seenFilters !== filterKey) {
    // New filters start at the first page.
    setSeenFilters(filterKey);
    setPage(0);
  }
  const shares = useShares({ page, size: PAGE_SIZE, all, ...filters });
  // On a phone the details go under the link, in one column, instead of a table scrolled sideways.
  const wide = Grid.useBreakpoint().sm !== false;
  const revoke = useMutation({
    mutationFn: (shareId: string) => revokeShare(shareId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: shareKeys.all }),
  });
  const date = (value: string | null) => (value ? dayjs(value).format("YYYY-MM-DD HH:mm") : "—");
  const count = (value: number, limit: number | null) => (limit ? `${value} / ${limit}` : String(value));
  const revokeButton = (share: ShareItem) =>
    share.state === "active" ? (
      <Popconfirm
        title={t("share.mine.revokeConfirm")}
        okText={t("crud.ok")}
        cancelText={t("crud.cancel")}
        onConfirm={() => revoke.mutateAsync(share.id)}
      >
        <Button size="small" danger data-testid="share-netdisk-link-revoke">
          {t("share.mine.revoke")}
        </Button>
      </Popconfirm>
    ) : null;
  return (
    <Table<ShareItem>
      data-testid={all ? "share-all-links" : "share-netdisk-links"}
      rowKey="id"
      size="middle"
      loading={shares.isLoading}
      dataSource={shares.data?.content ?? []}
      scroll={wide ? { x: "max-content" } : undefined}
      locale={{
        emptyText: Object.values(filters).some(Boolean) ? t("share.all.noMatch") : t("share.netdisk.noLinks"),
      }}
      pagination={pagerWhenMany(shares.data?.totalElements, page, PAGE_SIZE, setPage, { small: true })}
      columns={[
        {
          title: t("share.netdisk.link"),
          key: "link",
          render: (_value, share) => (
            <Space
              direction="vertical"
              size={wide ? 0 : 4}
              style={{ maxWidth: wide ? 280 : undefined }}
              data-testid="share-netdisk-link"
            >
              <Space wrap size={4}>
                <Typography.Text strong style={{ wordBreak: "break-all" }}>
                  {share.title || t(`share.kind.${share.kind}`)}
                </Typography.Text>
                {share.hasPassword ? <Tag>{t("share.mine.password")}</Tag> : null}
              </Space>
              <Typography.Text type="secondary" style={{ fontSize: 12, wordBreak: "break-all" }}>
                {share.target
                  ? t("share.netdisk.pointsAt", { kind: t(`share.kind.${share.kind}`), target: share.target })
                  : t(`share.kind.${share.kind}`)}
                {share.storyCount && share.storyCount > 1
                  ? ` · ${t("share.netdisk.stories", { count: share.storyCount })}`
                  : ""}
              </Typography.Text>
              {all ? (
                <Typography.Text style={{ fontSize: 12 }} data-testid="share-all-owner">
                  {t("share.all.ownerLine", { name: share.createdByName ?? "—" })}
                </Typography.Text>
              ) : null}
              {share.uploadDrop ? (
                <Typography.Text style={{ fontSize: 12 }} data-testid="share-netdisk-drop">
                  {t("share.mine.drop", {
                    files: share.uploadDrop.maxFiles
                      ? `${share.uploadDrop.files}/${share.uploadDrop.maxFiles}`
                      : share.uploadDrop.files,
                    folder: share.uploadDrop.folderName ?? "—",
                  })}
                </Typography.Text>
              ) : null}
              {wide ? null : (
                <Typography.Text style={{ fontSize: 12 }} data-testid="share-netdisk-link-details">
                  <Tag color={SHARE_STATE_COLORS[share.state]}>{t(`share.state.${share.state}`)}</Tag>
                  {t("share.netdisk.line", {
                    expires: share.expiresAt ? date(share.expiresAt) : t("share.form.never"),
                    views: count(share.views, share.viewLimit),
                    downloads: count(share.downloads, share.downloadLimit),
                    policy: t(`share.download.${share.downloadPolicy}`),
                    last: date(share.lastVisitAt),
                  })}
                </Typography.Text>
              )}
              {wide ? null : (
                <Space size={8} wrap>
                  <ShareVisitsButton share={share} />
                  {revokeButton(share)}
                </Space>
              )}
            </Space>
          ),
        },
        {
          title: t("share.netdisk.state"),
          responsive: ["sm"],
          dataIndex: "state",
          render: (state: ShareItem["state"]) => (
            <Tag color={SHARE_STATE_COLORS[state]}>{t(`share.state.${state}`)}</Tag>
          ),
        },
        {
          title: t("share.form.expiry"),
          responsive: ["sm"],
          dataIndex: "expiresAt",
          render: (at: string | null) => (at ? date(at) : t("share.form.never")),
        },
        {
          title: t("share.netdisk.views"),
          responsive: ["sm"],
          key: "views",
          render: (_value, share) => count(share.views, share.viewLimit),
        },
        {
          title: t("share.netdisk.downloads"),
          responsive: ["sm"],
          key: "downloads",
          render: (_value, share) => (
            <Space direction="vertical" size={0}>
              <span>{count(share.downloads, share.downloadLimit)}</span>
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {t(`share.download.${share.downloadPolicy}`)}
              </Typography.Text>
            </Space>
          ),
        },
        {
          title: t("share.netdisk.lastVisit"),
          responsive: ["sm"],
          dataIndex: "lastVisitAt",
          render: (at: string | null) => date(at),
        },
        {
          title: "",
          key: "actions",
          responsive: ["sm"],
          render: (_value, share) => (
            <Space size={8}>
              <ShareVisitsButton share={share} />
              {revokeButton(share)}
            </Space>
          ),
        },
      ]}
    />
  );
}
