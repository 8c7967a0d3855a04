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
  type Rect,
  usableCrop,
} from "./geometry";

/** What a confirmed crop gives: the cover as a data URL, exactly 16:9. */
export interface CroppedCover {
  dataUrl: string;
  width: number;
  height: number;
}

/** How long the cropper's frame keeps one size before the cropper is rebuilt for it. */
const RESIZE_SETTLE_MS = 150;

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
  const frame = useRef<HTMLDivElement>(null);
  const cropper = useRef<Cropper | null>(null);
  /** The last crop box that had a size, in the image's pixels: what a rebuilt cropper and confirm fall back to. */
  const lastCrop = useRef<Rect | null>(null);
  const [ready, setReady] = useState(false);

  useEffect(() => {
    const element = image.current;
    const container = frame.current;
    if (!element || !container) return;
    let instance: Cropper | null = null;
    let builtFor = "";
    const build = () => {
      instance?.destroy();
      setReady(false);
      builtFor = `${container.clientWidth}x${container.clientHeight}`;
      instance = new Cropper(element, {
        aspectRatio: COVER_RATIO.width / COVER_RATIO.height,
        viewMode: 1,
        autoCropArea: 1,
        background: true,
        // The cropper's own resize handling scales its boxes by the ratio of the container's sizes;
        // a container measured 0 wide for a moment (a full-page capture, a window minimised) collapses
        // the crop box to a point for good. It is rebuilt here instead, keeping the crop in image pixels.
        responsive: false,
        // Reading EXIF would fetch the blob again (connect-src refuses blob:); frames and canvases have none.
        checkOrientation: false,
        minContainerWidth: CROPPER_MIN_CONTAINER.width,
        minContainerHeight: CROPPER_MIN_CONTAINER.height,
        wheelZoomRatio: CROPPER_WHEEL_ZOOM_RATIO,
        ...(lastCrop.current ? { data: lastCrop.current } : {}),
        crop: (event) => {
          if (usableCrop(event.detail)) {
            const { x, y, width, height } = event.detail;
            lastCrop.current = { x, y, width, height };
          }
        },
        ready: () => setReady(true),
      });
      cropper.current = instance;
    };
    build();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const observer = new ResizeObserver(() => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        const size = `${container.clientWidth}x${container.clientHeight}`;
        if (container.clientWidth > 0 && container.clientHeight > 0 && size !== builtFor) build();
      }, RESIZE_SETTLE_MS);
    });
    observer.observe(container);
    return () => {
      clearTimeout(timer);
      observer.disconnect();
      instance?.destroy();
      cropper.current = null;
    };
    // One cropper per source: the parent keys this component by the source, so a new image remounts it.
  }, []);

  const confirm = () => {
    const instance = cropper.current;
    const element = image.current;
    if (!instance || !element) return;
    const naturalWidth = element.naturalWidth;
    const naturalHeight = element.naturalHeight;
    const current = instance.getData();
    const crop = usableCrop(current) ? current : lastCrop.current;
    if (!(naturalWidth > 0 && naturalHeight > 0 && crop)) return;
    const box = clampToImage(crop, naturalWidth, naturalHeight);
    const size = coverSize(box);
    // Drawn from the image element itself, not from the cropper's measured state (which a resize may have emptied).
    const canvas = document.createElement("canvas");
    canvas.width = size.width;
    canvas.height = size.height;
    const context = canvas.getContext("2d");
    if (!context) return;
    context.fillStyle = "#000";
    context.fillRect(0, 0, size.width, size.height);
    context.imageSmoothingEnabled = true;
    context.imageSmoothingQuality = "high";
    context.drawImage(element, box.x, box.y, box.width, box.height, 0, 0, size.width, size.height);
    const dataUrl = canvas.toDataURL("image/jpeg", COVER_QUALITY);
    if (!dataUrl.startsWith("data:image/")) return;
    onConfirm({ dataUrl, ...size });
  };

  return (
    <div data-testid="cover-cropper">
      <div
        ref={frame}
        style={{ height: "min(60vh, 480px)", minHeight: CROPPER_MIN_CONTAINER.height, background: "#000" }}
      >
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
