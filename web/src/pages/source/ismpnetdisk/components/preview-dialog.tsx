import { Modal, Result, Spin } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { type DiskNode, fetchDiskFile } from "../../../../api/disk";

/** How a file previews in the browser: as the viewer's players do (native image, video and audio elements). */
export function previewKind(mime: string | null): "image" | "video" | "audio" | null {
  if (!mime) return null;
  if (["image/jpeg", "image/png", "image/webp", "image/gif"].includes(mime)) return "image";
  if (mime === "video/mp4" || mime === "video/webm") return "video";
  if (mime.startsWith("audio/")) return "audio";
  return null;
}

/** A photo, video or audio file of the disk, shown in a dialog from its bytes (the API needs the bearer token). */
export function PreviewDialog({ item, onClose }: { item: DiskNode | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [url, setUrl] = useState<string | null>(null);
  const kind = previewKind(item?.mime ?? null);
  useEffect(() => {
    if (!item || !kind) return;
    let revoked = false;
    let objectUrl: string | null = null;
    void fetchDiskFile(item.id, "inline").then((file) => {
      if (revoked) return;
      objectUrl = URL.createObjectURL(file.blob);
      setUrl(objectUrl);
    });
    return () => {
      revoked = true;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
      setUrl(null);
    };
  }, [item, kind]);
  const media = !url ? (
    <Spin />
  ) : kind === "image" ? (
    <img src={url} alt={item?.name} style={{ maxWidth: "100%", maxHeight: "70vh", display: "block", margin: "auto" }} />
  ) : kind === "video" ? (
    // biome-ignore lint/a11y/useMediaCaption: a user's own file has no caption track
    <video src={url} controls style={{ width: "100%", maxHeight: "70vh" }} />
  ) : (
    // biome-ignore lint/a11y/useMediaCaption: a user's own file has no caption track
    <audio src={url} controls style={{ width: "100%" }} />
  );
  return (
    <Modal open={item !== null} title={item?.name} footer={null} onCancel={onClose} width={900} destroyOnHidden>
      <div data-testid="disk-preview" style={{ textAlign: "center" }}>
        {kind ? media : <Result status="info" title={t("disk.preview.none")} />}
      </div>
    </Modal>
  );
}
