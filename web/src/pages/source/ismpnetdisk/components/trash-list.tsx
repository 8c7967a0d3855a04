import { FileOutlined, FolderOutlined } from "@ant-design/icons";
import { useQueryClient } from "@tanstack/react-query";
import { Button, List, Modal, Space, Typography } from "antd";
import dayjs from "dayjs";
import { useTranslation } from "react-i18next";
import { diskKeys, purgeDiskNode, restoreDiskNode, useDiskTrash } from "../../../../api/disk";

/** The caller's trash: restore, or delete for good; kept 30 days. */
export function TrashList() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const trash = useDiskTrash();
  const refresh = () => queryClient.invalidateQueries({ queryKey: diskKeys.all });
  return (
    <List
      data-testid="disk-trash"
      header={<Typography.Text type="secondary">{t("disk.trash.hint")}</Typography.Text>}
      loading={trash.isLoading}
      dataSource={trash.data ?? []}
      locale={{ emptyText: t("disk.trash.empty") }}
      renderItem={(item) => (
        <List.Item
          actions={[
            <Button
              key="restore"
              size="small"
              onClick={async () => {
                await restoreDiskNode(item.id);
                await refresh();
              }}
            >
              {t("disk.trash.restore")}
            </Button>,
            <Button
              key="purge"
              size="small"
              danger
              onClick={() =>
                Modal.confirm({
                  title: t("disk.trash.purgeConfirm", { name: item.name }),
                  okButtonProps: { danger: true },
                  onOk: async () => {
                    await purgeDiskNode(item.id);
                    await refresh();
                  },
                })
              }
            >
              {t("disk.trash.purge")}
            </Button>,
          ]}
        >
          <Space wrap>
            {item.kind === "folder" ? <FolderOutlined /> : <FileOutlined />}
            <span style={{ wordBreak: "break-all" }}>{item.name}</span>
            <Typography.Text type="secondary">
              {t("disk.trash.deletedAt", { at: dayjs(item.trashedAt).format("YYYY-MM-DD HH:mm") })}
            </Typography.Text>
          </Space>
        </List.Item>
      )}
    />
  );
}
