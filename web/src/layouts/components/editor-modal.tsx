import { Empty, Modal } from "antd";
import { useTranslation } from "react-i18next";
import { EDITOR_MODAL_HEIGHT, EDITOR_MODAL_SIZE } from "../../config";

/** The video production / image-to-video dialog: 90% of the window; the editor lands with the video tools. */
export function EditorModal({ title, open, onClose }: { title: string; open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      title={title}
      open={open}
      onCancel={onClose}
      footer={null}
      width={EDITOR_MODAL_SIZE}
      centered
      destroyOnHidden
      styles={{
        content: { height: EDITOR_MODAL_HEIGHT, display: "flex", flexDirection: "column" },
        body: { flex: 1, display: "grid", placeItems: "center" },
      }}
    >
      <Empty description={t("layout.editorEmpty")} />
    </Modal>
  );
}
