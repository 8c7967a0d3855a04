import { Modal, TreeSelect } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { folderOptions, useFolders } from "../api/folders";

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
  const folders = useFolders(libraryId);
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
        treeData={folderOptions(folders.data ?? [])}
        value={folderId}
        onChange={setFolderId}
        placeholder={t("stories.moveRoot")}
        allowClear
        treeDefaultExpandAll
      />
    </Modal>
  );
}
