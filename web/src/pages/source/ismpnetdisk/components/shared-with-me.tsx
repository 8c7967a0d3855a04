import { FileOutlined, FolderOutlined } from "@ant-design/icons";
import { Button, List, Space, Tag, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { type DiskNode, useSharedWithMe } from "../../../../api/disk";

/** What colleagues shared with the caller; a folder opens in the disk's list. */
export function SharedWithMe({ onOpen }: { onOpen: (node: DiskNode) => void }) {
  const { t } = useTranslation();
  const shared = useSharedWithMe();
  return (
    <List
      data-testid="disk-shared-with-me"
      loading={shared.isLoading}
      dataSource={shared.data ?? []}
      locale={{ emptyText: t("empty.share.netdisk") }}
      renderItem={(entry) => (
        <List.Item>
          <Space wrap>
            <Button
              type="link"
              style={{ padding: 0 }}
              onClick={() => onOpen(entry.node)}
              data-testid="disk-shared-item"
            >
              {entry.node.kind === "folder" ? <FolderOutlined /> : <FileOutlined />} {entry.node.name}
            </Button>
            <Typography.Text type="secondary">{t("disk.sharedBy", { name: entry.ownerName })}</Typography.Text>
            <Tag>{t(`disk.level.${entry.level}`)}</Tag>
          </Space>
        </List.Item>
      )}
    />
  );
}
