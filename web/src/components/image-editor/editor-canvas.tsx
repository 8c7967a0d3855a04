import { Spin, Typography } from "antd";
import { type CSSProperties, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { CropBox } from "./crop-box";
import { applyOperation, type cachingResolver, type Operation } from "./operations";
import { aspectRatioOf } from "./rules";
import { MODES, type ViewMode } from "./session";
import type { EditorSession } from "./use-editor-session";
import type { WorkingCopies } from "./working-copy";

/**
 * The editor's image area: the current image in the view mode, the mode's
 * live preview over it, the cropper in crop mode, and a veil while the
 * session loads or works.
 */
export function EditorCanvas({ session, alt }: { session: EditorSession; alt: string }) {
  const { t } = useTranslation();
  const { state, busy, failed } = session;
  const current = state.current;
  return (
    <div
      style={{
        flex: 1,
        minWidth: 200,
        position: "relative",
        background: "#f0f2f5",
        overflow: "auto",
        display: "flex",
        alignItems: state.viewMode === 1 ? "center" : "flex-start",
        justifyContent: state.viewMode === 1 ? "center" : "flex-start",
      }}
    >
      {state.loading || busy ? (
        <div
          data-testid="editor-loading"
          style={{
            position: "absolute",
            inset: 0,
            zIndex: 10,
            display: "flex",
            flexDirection: "column",
            gap: 8,
            alignItems: "center",
            justifyContent: "center",
            background: "rgba(255,255,255,0.6)",
          }}
        >
          <Spin />
          <Typography.Text type="secondary">{t("imageEditor.loading")}</Typography.Text>
        </div>
      ) : null}
      {failed ? <Typography.Text type="danger">{t("imageEditor.loadFailed")}</Typography.Text> : null}
      {current && state.mode === MODES.crop ? (
        <div style={{ position: "absolute", inset: 0, overflow: "hidden" }}>
          <CropBox ref={session.cropBox} url={current.url} aspectRatio={aspectRatioOf(state.params.aspect)} alt={alt} />
        </div>
      ) : null}
      {current && state.mode !== MODES.crop ? (
        <Preview
          copies={session.copies}
          url={current.url}
          size={current}
          operation={session.preview}
          viewMode={state.viewMode}
          zoom={state.zoom}
          resolve={session.resolve}
          alt={alt}
        />
      ) : null}
    </div>
  );
}

/** The current image (or the live preview of the mode's unconfirmed change), in the view mode. */
function Preview({
  copies,
  url,
  size,
  operation,
  viewMode,
  zoom,
  resolve,
  alt,
}: {
  copies: WorkingCopies;
  url: string;
  size: { width: number; height: number };
  operation: Operation | null;
  viewMode: ViewMode;
  zoom: number;
  resolve: ReturnType<typeof cachingResolver>;
  alt: string;
}) {
  const canvasHost = useRef<HTMLDivElement>(null);
  const [previewSize, setPreviewSize] = useState<{ width: number; height: number } | null>(null);

  useEffect(() => {
    const host = canvasHost.current;
    const copy = copies.get(url);
    if (!host || !copy || !operation) {
      setPreviewSize(null);
      return;
    }
    let live = true;
    // Slider moves come fast: the frame draws the latest parameters only.
    const frame = requestAnimationFrame(() => {
      void applyOperation(copy.preview, operation, { maxSide: copy.preview.canvas.width, resolve }).then((raster) => {
        if (!live) return;
        raster.canvas.dataset.testid = "preview-canvas";
        host.replaceChildren(raster.canvas);
        setPreviewSize({ width: raster.width, height: raster.height });
      });
    });
    return () => {
      live = false;
      cancelAnimationFrame(frame);
    };
  }, [copies, url, operation, resolve]);

  const shown = operation && previewSize ? previewSize : size;
  const style: CSSProperties =
    viewMode === 1
      ? { maxWidth: "100%", maxHeight: "100%" }
      : { width: (shown.width * (viewMode === 2 ? 100 : zoom)) / 100, height: "auto", maxWidth: "none" };

  useEffect(() => {
    const canvas = canvasHost.current?.firstElementChild as HTMLCanvasElement | null;
    if (!canvas) return;
    canvas.removeAttribute("style");
    Object.assign(canvas.style, { display: "block", objectFit: "contain" }, cssOf(style));
  });

  return (
    <div
      style={{
        position: "absolute",
        inset: 0,
        display: "flex",
        alignItems: viewMode === 1 ? "center" : "flex-start",
        justifyContent: viewMode === 1 ? "center" : "flex-start",
        overflow: "auto",
        padding: 8,
        boxSizing: "border-box",
      }}
    >
      <div ref={canvasHost} style={{ display: operation ? "contents" : "none" }} />
      {operation ? null : (
        <img
          src={url}
          alt={alt}
          data-testid="editor-image"
          style={{ ...style, objectFit: "contain", display: "block" }}
        />
      )}
    </div>
  );
}

/** React's numeric lengths in pixels, for assigning to an element's style. */
function cssOf(style: CSSProperties): Record<string, string> {
  return Object.fromEntries(
    Object.entries(style).map(([key, value]) => [key, typeof value === "number" ? `${value}px` : String(value)]),
  );
}
