import { useQuery } from "@tanstack/react-query";
import { Modal, TreeSelect } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { type FolderNode, fetchFolders } from "../api/stories";

type TreeNode = { title: string; value: string; children: TreeNode[] };
export function folderTreeData(nodes: readonly FolderNode[]): TreeNode[] {
  return nodes.map((node) => ({ title: node.name, value: node.id, children: folderTreeData(node.children) }));
}

/** Picks the folder the selected stories move to (the library's root when none). */
export function MoveDialog({
  libraryId,
  onCancel,
  onMove,
}: {
  libraryId: string;
  onCancel: () => void;
  onMove: (folderId: string | null) => void;
}) {
  const { t } = useTranslation();
  const folders = useQuery({ queryKey: ["folders", libraryId], queryFn: () => fetchFolders(libraryId) });
  const [folderId, setFolderId] = useState<string | undefined>();
  return (
    <Modal
      open
      title={t("stories.moveTitle")}
      onCancel={onCancel}
      onOk={() => onMove(folderId ?? null)}
      okText={t("crud.ok")}
      cancelText={t("crud.cancel")}
    >
      <TreeSelect
        style={{ width: "100%" }}
        loading={folders.isLoading}
        treeData={folderTreeData(folders.data ?? [])}
        value={folderId}
        onChange={setFolderId}
        placeholder={t("stories.moveRoot")}
        allowClear
        treeDefaultExpandAll
      />
    </Modal>
  );
}
