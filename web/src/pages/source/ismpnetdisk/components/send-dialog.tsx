import type { ButtonProps } from "antd";
import { Form, Modal, Select, TreeSelect } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { type DiskNode, type DiskSentFile, sendToLibrary } from "../../../../api/disk";
import { folderOptions, useFolders } from "../../../../api/folders";
import { isWritable, useLibraries } from "../../../../api/libraries";

/** "Send to library": the chosen files become draft stories in a library and folder. */
export function SendDialog({
  items,
  onSent,
  onCancel,
}: {
  items: DiskNode[];
  onSent: (results: DiskSentFile[]) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const libraries = useLibraries();
  const writable = (libraries.data ?? []).filter(isWritable);
  const [libraryId, setLibraryId] = useState<string>();
  const [folderId, setFolderId] = useState<string>();
  const [busy, setBusy] = useState(false);
  const folders = useFolders(libraryId);
  useEffect(() => {
    if (!libraryId && writable[0]) setLibraryId(writable[0].id);
  }, [libraryId, writable]);
  const send = async () => {
    if (!libraryId) return;
    setBusy(true);
    try {
      onSent(await sendToLibrary({ nodeIds: items.map((item) => item.id), libraryId, folderId: folderId ?? null }));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open={items.length > 0}
      title={t("disk.send.title", { count: items.length })}
      onCancel={onCancel}
      onOk={send}
      okText={t("disk.send.ok")}
      confirmLoading={busy}
      okButtonProps={{ disabled: !libraryId, "data-testid": "disk-send-ok" } as ButtonProps}
      destroyOnHidden
    >
      <Form layout="vertical">
        <Form.Item label={t("disk.send.library")}>
          <Select
            aria-label={t("disk.send.library")}
            data-testid="disk-send-library"
            value={libraryId}
            onChange={(value: string) => {
              setLibraryId(value);
              setFolderId(undefined);
            }}
            options={writable.map((library) => ({ value: library.id, label: library.name }))}
          />
        </Form.Item>
        <Form.Item label={t("disk.send.folder")}>
          <TreeSelect
            allowClear
            aria-label={t("disk.send.folder")}
            placeholder={t("disk.send.noFolder")}
            value={folderId}
            onChange={(value?: string) => setFolderId(value)}
            treeData={folderOptions(folders.data ?? [])}
            treeDefaultExpandAll
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
