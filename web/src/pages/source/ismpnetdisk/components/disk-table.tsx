import { FileOutlined, FolderOutlined, MoreOutlined } from "@ant-design/icons";
import type { MenuProps } from "antd";
import { Button, Dropdown, Table, Typography } from "antd";
import dayjs from "dayjs";
import { useTranslation } from "react-i18next";
import type { DiskNode } from "../../../../api/disk";
import { formatBytes } from "../../../../components/uploader/upload-logic";

export type DiskAction = "open" | "preview" | "download" | "rename" | "move" | "share" | "send" | "delete";

/** What the caller may do with an item, by its kind and their access (docs/disk.md). */
export function actionsFor(item: DiskNode, canShare: boolean): DiskAction[] {
  const download = item.access !== "view";
  const edit = item.access === "owner" || item.access === "edit";
  const actions: DiskAction[] = item.kind === "folder" ? ["open"] : ["preview"];
  if (item.kind === "file" && download) actions.push("download", "send");
  if (edit) actions.push("rename", "move");
  if (item.access === "owner" && canShare) actions.push("share");
  if (edit) actions.push("delete");
  return actions;
}

/** A folder's contents: folders first, a row menu of what the caller may do. */
export function DiskTable({
  items,
  loading,
  canShare,
  selected,
  onSelect,
  onAction,
}: {
  items: DiskNode[];
  loading: boolean;
  canShare: boolean;
  selected: string[];
  onSelect: (ids: string[]) => void;
  onAction: (action: DiskAction, item: DiskNode) => void;
}) {
  const { t } = useTranslation();
  return (
    <Table<DiskNode>
      data-testid="disk-table"
      rowKey="id"
      size="middle"
      loading={loading}
      dataSource={items}
      pagination={false}
      scroll={{ x: "max-content" }}
      locale={{ emptyText: t("source.ismpnetdisk.empty") }}
      rowSelection={{ selectedRowKeys: selected, onChange: (keys) => onSelect(keys as string[]) }}
      columns={[
        {
          title: t("disk.name"),
          dataIndex: "name",
          render: (_name, item) => (
            <Button
              type="link"
              style={{ padding: 0, maxWidth: "min(420px, 55vw)", overflow: "hidden", textOverflow: "ellipsis" }}
              data-testid="disk-item"
              onClick={() => onAction(item.kind === "folder" ? "open" : "preview", item)}
            >
              {item.kind === "folder" ? <FolderOutlined /> : <FileOutlined />} {item.name}
            </Button>
          ),
        },
        {
          title: t("disk.size"),
          dataIndex: "size",
          responsive: ["sm"],
          render: (size: number, item) => (item.kind === "folder" ? "—" : formatBytes(size)),
        },
        {
          title: t("disk.updated"),
          dataIndex: "updatedAt",
          responsive: ["md"],
          render: (at: string) => (
            <Typography.Text type="secondary">{dayjs(at).format("YYYY-MM-DD HH:mm")}</Typography.Text>
          ),
        },
        {
          title: "",
          key: "actions",
          width: 48,
          render: (_value, item) => {
            const menu: MenuProps["items"] = actionsFor(item, canShare).map((action) => ({
              key: action,
              label: t(`disk.action.${action}`),
              danger: action === "delete",
            }));
            return (
              <Dropdown
                trigger={["click"]}
                menu={{ items: menu, onClick: ({ key }) => onAction(key as DiskAction, item) }}
              >
                <Button
                  type="text"
                  icon={<MoreOutlined />}
                  aria-label={t("disk.actions", { name: item.name })}
                  data-testid="disk-item-menu"
                />
              </Dropdown>
            );
          },
        },
      ]}
    />
  );
}
