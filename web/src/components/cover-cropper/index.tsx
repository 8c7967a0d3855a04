import "cropperjs/dist/cropper.css";
import { Button, Space, Typography } from "antd";
import Cropper from "cropperjs";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  COVER_RATIO,
  COVER_RATIO_TEXT,
  CROPPER_MIN_CONTAINER,
  CROPPER_WHEEL_ZOOM_RATIO,
  clampToImage,
  coverSize,
} from "./geometry";

/** What a confirmed crop gives: the cover as a data URL, exactly 16:9. */
export interface CroppedCover {
  dataUrl: string;
  width: number;
  height: number;
}

/** JPEG at the spec's default encoder quality (section 9). */
const COVER_QUALITY = 0.92;

/**
 * Spec section 2, "Cover cropper screen": a crop box locked to 16:9, the
 * caption 'cover image ratio: 16:9' and a confirm button. `source` is an
 * image URL the page may read pixels from (an object or data URL).
 */
export function CoverCropper({
  source,
  confirming = false,
  onConfirm,
}: {
  source: string;
  confirming?: boolean;
  onConfirm: (cover: CroppedCover) => void;
}) {
  const { t } = useTranslation();
  const image = useRef<HTMLImageElement>(null);
  const cropper = useRef<Cropper | null>(null);
  const [ready, setReady] = useState(false);

  useEffect(() => {
    const element = image.current;
    if (!element) return;
    setReady(false);
    const instance = new Cropper(element, {
      aspectRatio: COVER_RATIO.width / COVER_RATIO.height,
      viewMode: 1,
      autoCropArea: 1,
      background: true,
      responsive: true,
      // Reading EXIF would fetch the blob again (connect-src refuses blob:); frames and canvases have none.
      checkOrientation: false,
      minContainerWidth: CROPPER_MIN_CONTAINER.width,
      minContainerHeight: CROPPER_MIN_CONTAINER.height,
      wheelZoomRatio: CROPPER_WHEEL_ZOOM_RATIO,
      ready: () => setReady(true),
    });
    cropper.current = instance;
    return () => {
      instance.destroy();
      cropper.current = null;
    };
    // One cropper per source: the parent keys this component by the source, so a new image remounts it.
  }, []);

  const confirm = () => {
    const instance = cropper.current;
    if (!instance) return;
    // The cropper's image data is empty while it re-measures (a resize); the element knows its size.
    const imageData = instance.getImageData();
    const naturalWidth = imageData.naturalWidth || image.current?.naturalWidth || 0;
    const naturalHeight = imageData.naturalHeight || image.current?.naturalHeight || 0;
    const data = instance.getData();
    if (!(naturalWidth > 0 && naturalHeight > 0 && data.width > 0 && data.height > 0)) return;
    const size = coverSize(clampToImage(data, naturalWidth, naturalHeight));
    const canvas = instance.getCroppedCanvas({
      ...size,
      fillColor: "#000",
      imageSmoothingEnabled: true,
      imageSmoothingQuality: "high",
    });
    const dataUrl = canvas?.toDataURL("image/jpeg", COVER_QUALITY);
    // An empty canvas encodes as "data:,": never send that as a cover; the user can confirm again.
    if (!dataUrl?.startsWith("data:image/")) return;
    onConfirm({ dataUrl, ...size });
  };

  return (
    <div data-testid="cover-cropper">
      <div style={{ height: "min(60vh, 480px)", minHeight: CROPPER_MIN_CONTAINER.height, background: "#000" }}>
        <img
          ref={image}
          src={source}
          alt={t("cover.sourceAlt")}
          style={{ display: "block", maxWidth: "100%" }}
          data-testid="cover-cropper-image"
        />
      </div>
      <Space style={{ marginTop: 12, width: "100%", justifyContent: "space-between" }}>
        <Typography.Text data-testid="cover-ratio-caption">
          {t("cover.ratioCaption", { ratio: COVER_RATIO_TEXT })}
        </Typography.Text>
        <Button type="primary" disabled={!ready} loading={confirming} onClick={confirm} data-testid="cover-confirm">
          {t("cover.confirm")}
        </Button>
      </Space>
    </div>
  );
}
