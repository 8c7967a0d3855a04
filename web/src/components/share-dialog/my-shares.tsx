import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Button, List, Popconfirm, Space, Tag, Typography } from "antd";
import dayjs from "dayjs";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { revokeShare, SHARE_STATE_COLORS, shareKeys, useMyShares } from "../../api/shares";
import { pagerWhenMany } from "../pager";
import { ShareVisitsButton } from "./share-visits";

/** The shares I made, newest first: what, until when, views and downloads, last opened; visitor log; revoke. */
export function MyShares() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(0);
  const size = 10;
  const shares = useMyShares(page, size);
  const revoke = useMutation({
    mutationFn: (shareId: string) => revokeShare(shareId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: shareKeys.all }),
  });
  const date = (value: string | null) => (value ? dayjs(value).format("YYYY-MM-DD HH:mm") : "—");
  return (
    <List
      data-testid="my-shares"
      loading={shares.isLoading}
      dataSource={shares.data?.content ?? []}
      locale={{ emptyText: t("share.mine.empty") }}
      pagination={pagerWhenMany(shares.data?.totalElements, page, size, setPage, { small: true })}
      renderItem={(share) => (
        <List.Item
          data-testid="my-share"
          actions={[
            <ShareVisitsButton key="visits" share={share} />,
            ...(share.state === "active"
              ? [
                  <Popconfirm
                    key="revoke"
                    title={t("share.mine.revokeConfirm")}
                    okText={t("crud.ok")}
                    cancelText={t("crud.cancel")}
                    onConfirm={() => revoke.mutate(share.id)}
                  >
                    <Button size="small" danger loading={revoke.isPending} data-testid="share-revoke">
                      {t("share.mine.revoke")}
                    </Button>
                  </Popconfirm>,
                ]
              : []),
          ]}
        >
          <List.Item.Meta
            title={
              <Space wrap>
                <Typography.Text strong>{share.title || t(`share.kind.${share.kind}`)}</Typography.Text>
                <Tag color={SHARE_STATE_COLORS[share.state]}>{t(`share.state.${share.state}`)}</Tag>
                {share.hasPassword ? <Tag>{t("share.mine.password")}</Tag> : null}
              </Space>
            }
            description={
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {t("share.mine.line", {
                  kind: t(`share.kind.${share.kind}`),
                  expires: share.expiresAt ? date(share.expiresAt) : t("share.form.never"),
                  views: share.viewLimit ? `${share.views}/${share.viewLimit}` : share.views,
                  downloads: share.downloadLimit ? `${share.downloads}/${share.downloadLimit}` : share.downloads,
                  last: date(share.lastVisitAt),
                })}
                {share.uploadDrop
                  ? ` · ${t("share.mine.drop", { files: share.uploadDrop.files, folder: share.uploadDrop.folderName ?? "—" })}`
                  : ""}
              </Typography.Text>
            }
          />
        </List.Item>
      )}
    />
  );
}
