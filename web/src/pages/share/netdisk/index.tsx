import { useQueryClient } from "@tanstack/react-query";
import { Button, Card, Grid, Popconfirm, Space, Table, Tabs, Tag, Typography } from "antd";
import dayjs from "dayjs";
import { useTranslation } from "react-i18next";
import { type DiskShare, diskKeys, revokeDiskShare, useDiskShares } from "../../../api/disk";
import { useCurrentUser } from "../../../auth/session-context";
import { FilteredShareLinks } from "./components/share-filters";

/** /share/netdisk: what I shared: internal shares of my disk, and my share links; each revoked here. */
export default function ShareNetdiskPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const user = useCurrentUser();
  const shares = useDiskShares();
  const granteeLabel = (share: DiskShare) =>
    share.granteeKind === "everyone"
      ? t("disk.share.everyone")
      : share.granteeKind === "role"
        ? t("disk.share.roleName", { name: share.granteeName })
        : share.granteeName;
  // On a phone, with whom, the level and revoke go under the item, in one column, as the links below do.
  const wide = Grid.useBreakpoint().sm !== false;
  const revokeButton = (share: DiskShare) => (
    <Popconfirm
      title={t("disk.share.revoke")}
      onConfirm={async () => {
        await revokeDiskShare(share.id);
        await queryClient.invalidateQueries({ queryKey: diskKeys.all });
      }}
    >
      <Button size="small" danger data-testid="share-netdisk-revoke">
        {t("disk.share.revoke")}
      </Button>
    </Popconfirm>
  );
  return (
    <Space direction="vertical" size={16} style={{ width: "100%" }} data-testid="share-netdisk">
      <Card
        title={t("share.netdisk.mine")}
        extra={
          <Button type="link" href="/source/ismpnetdisk">
            {t("share.netdisk.openDisk")}
          </Button>
        }
      >
        <Table<DiskShare>
          rowKey="id"
          size="middle"
          loading={shares.isLoading}
          dataSource={shares.data ?? []}
          pagination={false}
          scroll={wide ? { x: "max-content" } : undefined}
          locale={{ emptyText: t("share.netdisk.none") }}
          columns={[
            {
              title: t("share.netdisk.item"),
              key: "item",
              render: (_value, share) =>
                wide ? (
                  <span style={{ wordBreak: "break-all" }}>{share.nodeName}</span>
                ) : (
                  <Space direction="vertical" size={4}>
                    <Typography.Text strong style={{ wordBreak: "break-all" }}>
                      {share.nodeName}
                    </Typography.Text>
                    <Space wrap size={4}>
                      <Typography.Text type="secondary">{granteeLabel(share)}</Typography.Text>
                      <Tag>{t(`disk.level.${share.level}`)}</Tag>
                    </Space>
                    {revokeButton(share)}
                  </Space>
                ),
            },
            {
              title: t("share.netdisk.with"),
              key: "grantee",
              responsive: ["sm"],
              render: (_value, share) => granteeLabel(share),
            },
            {
              title: t("share.netdisk.level"),
              dataIndex: "level",
              responsive: ["sm"],
              render: (level: DiskShare["level"]) => <Tag>{t(`disk.level.${level}`)}</Tag>,
            },
            {
              title: t("share.netdisk.since"),
              dataIndex: "createdAt",
              responsive: ["sm"],
              render: (at: string) => dayjs(at).format("YYYY-MM-DD HH:mm"),
            },
            { title: "", key: "revoke", responsive: ["sm"], render: (_value, share) => revokeButton(share) },
          ]}
        />
      </Card>
      <Card title={t("share.netdisk.linksTitle")}>
        {user?.admin ? (
          <Tabs
            data-testid="share-links-tabs"
            items={[
              { key: "mine", label: t("share.all.mineTab"), children: <FilteredShareLinks /> },
              { key: "all", label: t("share.all.tab"), children: <FilteredShareLinks all /> },
            ]}
          />
        ) : (
          <FilteredShareLinks />
        )}
      </Card>
    </Space>
  );
}
