import { useQueryClient } from "@tanstack/react-query";
import { Button, Card, Popconfirm, Space, Table, Tag } from "antd";
import dayjs from "dayjs";
import { useTranslation } from "react-i18next";
import { type DiskShare, diskKeys, revokeDiskShare, useDiskShares } from "../../../api/disk";
import { ShareLinks } from "./components/share-links";

/** /share/netdisk: what I shared: internal shares of my disk, and my share links; each revoked here. */
export default function ShareNetdiskPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const shares = useDiskShares();
  const granteeLabel = (share: DiskShare) =>
    share.granteeKind === "everyone"
      ? t("disk.share.everyone")
      : share.granteeKind === "role"
        ? t("disk.share.roleName", { name: share.granteeName })
        : share.granteeName;
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
          scroll={{ x: "max-content" }}
          locale={{ emptyText: t("share.netdisk.none") }}
          columns={[
            {
              title: t("share.netdisk.item"),
              dataIndex: "nodeName",
              render: (name: string) => <span style={{ wordBreak: "break-all" }}>{name}</span>,
            },
            { title: t("share.netdisk.with"), key: "grantee", render: (_value, share) => granteeLabel(share) },
            {
              title: t("share.netdisk.level"),
              dataIndex: "level",
              render: (level: DiskShare["level"]) => <Tag>{t(`disk.level.${level}`)}</Tag>,
            },
            {
              title: t("share.netdisk.since"),
              dataIndex: "createdAt",
              responsive: ["sm"],
              render: (at: string) => dayjs(at).format("YYYY-MM-DD HH:mm"),
            },
            {
              title: "",
              key: "revoke",
              render: (_value, share) => (
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
              ),
            },
          ]}
        />
      </Card>
      <Card title={t("share.netdisk.linksTitle")}>
        <ShareLinks />
      </Card>
    </Space>
  );
}
