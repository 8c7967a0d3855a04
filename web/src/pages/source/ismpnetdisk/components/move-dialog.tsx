import { FolderOutlined } from "@ant-design/icons";
import type { ButtonProps } from "antd";
import { Breadcrumb, Button, List, Modal } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { type DiskNode, useDiskFolder } from "../../../../api/disk";

/**
 * Picks the folder to move items into, browsing down from `top` (the
 * caller's root, or the shared folder they reached the items through).
 */
export function MoveDialog({
  items,
  top,
  onMove,
  onCancel,
}: {
  items: DiskNode[];
  top: string | null;
  onMove: (parentId: string | null) => Promise<unknown>;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const open = items.length > 0;
  const [folderId, setFolderId] = useState<string | null>(top);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (open) setFolderId(top);
  }, [open, top]);
  const folder = useDiskFolder(folderId, open);
  const moving = new Set(items.map((item) => item.id));
  const folders = (folder.data?.items ?? []).filter((item) => item.kind === "folder" && !moving.has(item.id));
  const path = folder.data?.path ?? [];
  const topIndex = top ? path.findIndex((step) => step.id === top) : -1;
  const crumbs = [
    ...(top === null ? [{ id: null as string | null, name: t("disk.root") }] : []),
    ...path.slice(Math.max(0, topIndex)),
  ];
  const move = async () => {
    setBusy(true);
    try {
      await onMove(folderId);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open={open}
      title={t("disk.move.title", { count: items.length })}
      onCancel={onCancel}
      onOk={move}
      okText={t("disk.move.here")}
      confirmLoading={busy}
      okButtonProps={{ "data-testid": "disk-move-ok" } as ButtonProps}
      destroyOnHidden
    >
      <Breadcrumb
        items={crumbs.map((step) => ({
          title: (
            <Button type="link" size="small" onClick={() => setFolderId(step.id)} style={{ padding: 0 }}>
              {step.name}
            </Button>
          ),
        }))}
      />
      <List
        size="small"
        loading={folder.isLoading}
        dataSource={folders}
        locale={{ emptyText: t("disk.move.noFolders") }}
        renderItem={(item) => (
          <List.Item style={{ cursor: "pointer" }} onClick={() => setFolderId(item.id)}>
            <FolderOutlined style={{ marginRight: 8 }} />
            {item.name}
          </List.Item>
        )}
      />
    </Modal>
  );
}
