import { useQueryClient } from "@tanstack/react-query";
import { Button, Card, Popconfirm, Table, Tag, Typography } from "antd";
import dayjs from "dayjs";
import { useTranslation } from "react-i18next";
import { type DiskShare, diskKeys, revokeDiskShare, useDiskShares } from "../../../api/disk";

/**
 * /share/netdisk: what I shared. Internal shares of my disk (revoke here);
 * share links join this page when the share links module (h16share) lands.
 */
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
    <div data-testid="share-netdisk">
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
        {/* Follow-up: list the share links of modules/shares here (with their revoke) once h16share's API lands. */}
        <Typography.Paragraph type="secondary" style={{ marginTop: 16 }}>
          {t("share.netdisk.links")}
        </Typography.Paragraph>
      </Card>
    </div>
  );
}
