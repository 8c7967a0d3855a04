import Cropper from "cropperjs";
import "cropperjs/dist/cropper.css";
import { forwardRef, useEffect, useImperativeHandle, useRef } from "react";
import type { Box } from "./rules";

export interface CropBoxHandle {
  /** The crop box in pixels of the shown image. */
  box(): Box | null;
}

/** Spec section 9: the cropper's minimum container 200 × 100 and wheel zoom ratio 0.1. */
const CROPPER_OPTIONS: Cropper.Options = {
  viewMode: 1,
  autoCropArea: 1,
  minContainerWidth: 200,
  minContainerHeight: 100,
  wheelZoomRatio: 0.1,
  background: true,
  responsive: true,
  rotatable: false,
  scalable: false,
};

/** The crop mode's preview: cropperjs on the current image, with the chosen aspect ratio. */
export const CropBox = forwardRef<CropBoxHandle, { url: string; aspectRatio: number; alt: string }>(function CropBox(
  { url, aspectRatio, alt },
  ref,
) {
  const image = useRef<HTMLImageElement>(null);
  const cropper = useRef<Cropper | null>(null);

  // A new cropper for a new image only; the aspect ratio has its own effect below.
  // biome-ignore lint/correctness/useExhaustiveDependencies: url is the image the cropper is built on
  useEffect(() => {
    const element = image.current;
    if (!element) return;
    const instance = new Cropper(element, { ...CROPPER_OPTIONS, aspectRatio });
    cropper.current = instance;
    return () => {
      instance.destroy();
      cropper.current = null;
    };
  }, [url]);

  useEffect(() => {
    cropper.current?.setAspectRatio(aspectRatio);
  }, [aspectRatio]);

  useImperativeHandle(ref, () => ({
    box: () => {
      const data = cropper.current?.getData(true);
      return data ? { x: data.x, y: data.y, width: data.width, height: data.height } : null;
    },
  }));

  return (
    // The cropper takes its container's size: the image is held inside it (a tall image at its natural size made
    // the container, and so the crop area, larger than the canvas, with scrollbars — issue 15).
    <div style={{ width: "100%", height: "100%", overflow: "hidden" }} data-testid="crop-box">
      <img ref={image} src={url} alt={alt} style={{ display: "block", maxWidth: "100%", maxHeight: "100%" }} />
    </div>
  );
});
