import "@uppy/core/dist/style.min.css";
import "@uppy/dashboard/dist/style.min.css";
import { useQuery, useQueryClient } from "@tanstack/react-query";
// The package index pulls in every optional peer (drag-drop, webcam…); only the Dashboard is used.
import Dashboard from "@uppy/react/lib/Dashboard.js";
import { Modal } from "antd";
import { useCallback } from "react";
import { useTranslation } from "react-i18next";
import { diskKeys } from "../../../../api/disk";
import { uploadLimitsQuery } from "../../../../api/uploads";
import { useUppy } from "../../../../components/uploader/use-uppy";

/**
 * Uploads into a disk folder through tus (Upload-Metadata target=disk), with
 * the upload pages' progress, pause and resume (Uppy's Dashboard).
 */
export function DiskUpload({
  open,
  folderId,
  onClose,
}: {
  open: boolean;
  folderId: string | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const limits = useQuery(uploadLimitsQuery());
  const readMeta = useCallback(() => ({ target: "disk", diskFolderId: folderId ?? "" }), [folderId]);
  const onUploaded = useCallback(() => {}, []);
  const onFinished = useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: diskKeys.all });
  }, [queryClient]);
  const { uppy } = useUppy({ type: "disk", limits: limits.data, readMeta, onUploaded, onFinished });
  return (
    <Modal open={open} title={t("disk.upload.title")} footer={null} onCancel={onClose} width={720} forceRender>
      <div data-testid="disk-upload">
        <Dashboard
          uppy={uppy}
          width="100%"
          height={360}
          proudlyDisplayPoweredByUppy={false}
          showProgressDetails
          note={t("disk.upload.note")}
          locale={{
            strings: {
              dropPasteFiles: t("upload.dashboard.drop"),
              browseFiles: t("upload.dashboard.browseFiles"),
            },
          }}
        />
      </div>
    </Modal>
  );
}
