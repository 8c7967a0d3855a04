import {
  ExpandOutlined,
  FolderOpenOutlined,
  RedoOutlined,
  UndoOutlined,
  ZoomInOutlined,
  ZoomOutOutlined,
} from "@ant-design/icons";
import { Button, Form, InputNumber, Radio, Space, Spin, Tooltip, Typography, Upload } from "antd";
import { type CSSProperties, type JSX, useCallback, useEffect, useMemo, useReducer, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { fetchBlob } from "../../api/stories";
import { useFeedback } from "../feedback";
import { CropBox, type CropBoxHandle } from "./crop-box";
import { ColourPanel, CropPanel, ResizePanel, RotatePanel } from "./mode-panels";
import {
  applyOperation,
  cachingResolver,
  loadImage,
  type Operation,
  outputMime,
  rasterOf,
  renderFullResolution,
} from "./operations";
import {
  checkWatermark,
  colourOperation,
  initialColour,
  initialCropAspect,
  initialRotate,
  initialWatermark,
  resizeOperation,
  rotateOperation,
  WATERMARK_WARNINGS,
  watermarkOperation,
} from "./params";
import {
  acceptAttribute,
  aspectRatioOf,
  clampZoom,
  cropApplies,
  detectPlatformLimits,
  exactAspect,
  featureAllowed,
  initialResize,
  isAcceptedImage,
  LARGE_LIMITS,
  type LimitedFeature,
  PICK_IMAGE_EXTENSIONS,
  type PlatformLimits,
  previewFontSize,
  resizeAccepted,
  ZOOM_MAX,
  ZOOM_MIN,
  zoomIn,
  zoomOut,
  zoomStep,
} from "./rules";
import {
  canRedo,
  canReset,
  canUndo,
  initialSession,
  MODES,
  type Mode,
  saveOperations,
  sessionReducer,
} from "./session";
import { WatermarkPanel } from "./watermark-panel";
import { WorkingCopies, workingMaxSide } from "./working-copy";

export interface ImageEditorProps {
  source: string | Blob;
  fileName?: string;
  /** Encoder quality; 0.92 by default (spec section 9). */
  quality?: number;
  /** The edited image, or null when nothing was edited. */
  onSave: (image: Blob | null) => void;
  onClose: () => void;
}

/** Spec section 4: resize opens 400 ms after mounting; the image is editable 300 ms after it loads. */
export const INITIAL_MODE_DELAY_MS = 400;
export const EDITABLE_DELAY_MS = 300;
/** Spec section 9: the editor panel is 425 px wide. */
export const PANEL_WIDTH = 425;

const MODE_FEATURES: Record<1 | 2 | 3 | 4 | 5, LimitedFeature> = {
  1: "crop",
  2: "rotate",
  3: "colour",
  4: "watermark",
  5: "resize",
};
const MODE_KEYS = { 1: "crop", 2: "rotate", 3: "colour", 4: "watermark", 5: "resize" } as const;

/** An image as a blob: an API path with the bearer token, any other URL (data, blob, http) as it is; only status 200 counts. */
async function sourceBlob(source: string | Blob): Promise<Blob> {
  if (typeof source !== "string") return source;
  if (source.startsWith("/dams/")) return fetchBlob(source);
  const response = await fetch(source);
  if (response.status !== 200) throw new Error(`GET ${source}: ${response.status}`);
  return response.blob();
}

interface Input {
  blob: Blob;
  url: string;
}

export function ImageEditor({ source, fileName, quality = 0.92, onSave, onClose }: ImageEditorProps): JSX.Element {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const [state, dispatch] = useReducer(sessionReducer, initialSession);
  const [limits, setLimits] = useState<PlatformLimits>(LARGE_LIMITS);
  const [picked, setPicked] = useState<Blob | null>(null);
  const [input, setInput] = useState<Input | null>(null);
  const [failed, setFailed] = useState(false);
  const [busy, setBusy] = useState(false);
  const copies = useRef(new WorkingCopies());
  const resolve = useMemo(() => cachingResolver(), []);
  const maxSide = useMemo(() => workingMaxSide(), []);

  // Each mode's unconfirmed parameters.
  const [aspect, setAspect] = useState(initialCropAspect);
  const [rotate, setRotate] = useState(initialRotate);
  const [colour, setColour] = useState(initialColour);
  const [watermark, setWatermark] = useState(initialWatermark);
  const [resize, setResize] = useState(() => initialResize({ width: 1, height: 1 }, LARGE_LIMITS.maxResizeLength));
  const cropBox = useRef<CropBoxHandle>(null);

  useEffect(() => {
    void detectPlatformLimits().then(setLimits);
    const timer = setTimeout(() => dispatch({ type: "enterMode", mode: MODES.resize }), INITIAL_MODE_DELAY_MS);
    const owned = copies.current;
    return () => {
      clearTimeout(timer);
      owned.dispose();
    };
  }, []);

  // The input image: the source, or another picked image.
  useEffect(() => {
    let live = true;
    let url: string | null = null;
    dispatch({ type: "load" });
    setFailed(false);
    sourceBlob(picked ?? source)
      .then(async (blob) => {
        url = URL.createObjectURL(blob);
        const image = await loadImage(url);
        if (!live) return;
        const raster = rasterOf(image, maxSide);
        copies.current.add(url, raster, false);
        setInput({ blob, url });
        dispatch({ type: "loaded", image: { url, width: raster.width, height: raster.height, operations: [] } });
      })
      .catch(() => {
        if (live) setFailed(true);
      });
    return () => {
      live = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [picked, source, maxSide]);

  useEffect(() => {
    if (state.loading) return;
    const timer = setTimeout(() => dispatch({ type: "editable" }), EDITABLE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [state.loading]);

  const current = state.current;
  const mime = input?.blob.type || "image/jpeg";

  // Entering a mode, or a new current image, starts the mode's parameters afresh.
  const enterMode = useCallback(
    (mode: Exclude<Mode, 99>) => {
      setAspect(initialCropAspect);
      setRotate(initialRotate);
      setColour(initialColour);
      setWatermark(initialWatermark);
      if (current) setResize(initialResize(current, limits.maxResizeLength));
      dispatch({ type: "enterMode", mode });
    },
    [current, limits.maxResizeLength],
  );
  useEffect(() => {
    if (current) setResize(initialResize(current, limits.maxResizeLength));
  }, [current, limits.maxResizeLength]);

  const pendingPreview = useMemo((): Operation | null => {
    switch (state.mode) {
      case MODES.rotate:
        return rotateOperation(rotate, mime);
      case MODES.colour:
        return colourOperation(colour);
      case MODES.watermark:
        return watermarkOperation(watermark, previewFontSize(watermark.fontSize));
      default:
        return null;
    }
  }, [state.mode, rotate, colour, watermark, mime]);

  const confirmOperation = async (operation: Operation | null) => {
    if (!current) return;
    if (!operation) {
      // Nothing to apply (a rotation sum of 0, neutral colours, the whole image as crop box): leave the mode.
      dispatch({ type: "cancel" });
      return;
    }
    const copy = copies.current.get(current.url);
    if (!copy) return;
    setBusy(true);
    try {
      const raster = await applyOperation(copy.raster, operation, { maxSide, resolve });
      const url = await copies.current.register(raster);
      dispatch({
        type: "confirm",
        image: { url, width: raster.width, height: raster.height, operations: [...current.operations, operation] },
      });
      setRotate(initialRotate);
      setColour(initialColour);
    } finally {
      setBusy(false);
    }
  };

  const confirm = () => {
    if (!current) return;
    switch (state.mode) {
      case MODES.crop: {
        const shown = copies.current.get(current.url);
        const box = cropBox.current?.box();
        if (!box || !shown) return;
        const scale = shown.raster.canvas.width / shown.raster.width;
        const logical = exactAspect(
          { x: box.x / scale, y: box.y / scale, width: box.width / scale, height: box.height / scale },
          aspect,
          current,
        );
        return void confirmOperation(cropApplies(logical, current) ? { kind: "crop", ...logical } : null);
      }
      case MODES.rotate:
        return void confirmOperation(rotateOperation(rotate, mime));
      case MODES.colour:
        return void confirmOperation(colourOperation(colour));
      case MODES.watermark: {
        const verdict = checkWatermark(watermark, current);
        if (verdict === "silent") return;
        if (verdict !== "ok") {
          message.warning(t(WATERMARK_WARNINGS[verdict]));
          return;
        }
        return void confirmOperation(watermarkOperation(watermark));
      }
      case MODES.resize:
        if (!resizeAccepted(resize, current, limits.maxResizeLength)) return;
        return void confirmOperation(resizeOperation(resize, current));
    }
  };

  const save = async () => {
    const operations = saveOperations(state);
    if (!operations || !input) {
      onSave(null);
      return;
    }
    setBusy(true);
    try {
      const started = performance.now();
      const blob = await renderFullResolution(input.url, operations, { mime: outputMime(mime), quality, resolve });
      console.info(
        `image editor: saved ${current?.width}×${current?.height} in ${Math.round(performance.now() - started)} ms`,
      );
      onSave(blob);
    } catch {
      message.error(t("imageEditor.saveFailed"));
    } finally {
      setBusy(false);
    }
  };

  const pickImage = (file: File) => {
    if (!isAcceptedImage(file, PICK_IMAGE_EXTENSIONS)) {
      message.warning(t("imageEditor.notImage"));
      return;
    }
    setPicked(file);
  };

  const inMode = state.mode >= 1 && state.mode <= 5;
  const featureOk = (mode: 1 | 2 | 3 | 4 | 5) =>
    current !== null &&
    input !== null &&
    featureAllowed(limits, MODE_FEATURES[mode], {
      width: current.width,
      height: current.height,
      bytes: input.blob.size,
    });

  return (
    <div
      data-testid="image-editor"
      data-mode={state.mode}
      data-edited={String(state.edited)}
      data-editable={String(state.editable)}
      data-undo={state.undo.length}
      data-redo={state.redo.length}
      data-width={current?.width ?? 0}
      data-height={current?.height ?? 0}
      style={{ display: "flex", gap: 16, height: "100%", minHeight: 420 }}
    >
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
          <div style={{ position: "absolute", inset: 0 }}>
            <CropBox ref={cropBox} url={current.url} aspectRatio={aspectRatioOf(aspect)} alt={fileName ?? ""} />
          </div>
        ) : null}
        {current && state.mode !== MODES.crop ? (
          <Preview
            copies={copies.current}
            url={current.url}
            size={current}
            operation={pendingPreview}
            viewMode={state.viewMode}
            zoom={state.zoom}
            resolve={resolve}
            alt={fileName ?? ""}
          />
        ) : null}
      </div>
      <div
        style={{ width: PANEL_WIDTH, flex: `0 0 ${PANEL_WIDTH}px`, overflowY: "auto" }}
        data-testid="image-editor-panel"
      >
        <Space wrap style={{ marginBottom: 12 }}>
          <Tooltip title={t("imageEditor.undo")}>
            <Button
              icon={<UndoOutlined />}
              disabled={!canUndo(state) || busy}
              onClick={() => dispatch({ type: "undo" })}
              aria-label={t("imageEditor.undo")}
            />
          </Tooltip>
          <Tooltip title={t("imageEditor.redo")}>
            <Button
              icon={<RedoOutlined />}
              disabled={!canRedo(state) || busy}
              onClick={() => dispatch({ type: "redo" })}
              aria-label={t("imageEditor.redo")}
            />
          </Tooltip>
          <Button disabled={!canReset(state) || busy} onClick={() => dispatch({ type: "reset" })}>
            {t("imageEditor.reset")}
          </Button>
          <Upload
            accept={acceptAttribute(PICK_IMAGE_EXTENSIONS)}
            showUploadList={false}
            beforeUpload={(file) => {
              pickImage(file);
              return false;
            }}
          >
            <Button icon={<FolderOpenOutlined />} data-testid="pick-image">
              {t("imageEditor.pickImage")}
            </Button>
          </Upload>
        </Space>
        <Space wrap style={{ marginBottom: 12 }}>
          <Radio.Group
            optionType="button"
            size="small"
            value={state.viewMode}
            onChange={(event) => dispatch({ type: "viewMode", viewMode: event.target.value })}
            options={[
              {
                value: 1,
                label: <ExpandOutlined aria-label={t("imageEditor.view.fit")} />,
                title: t("imageEditor.view.fit"),
              },
              { value: 2, label: "1:1", title: t("imageEditor.view.actual") },
              { value: 3, label: "%", title: t("imageEditor.view.percent") },
            ]}
          />
          <Button
            size="small"
            icon={<ZoomOutOutlined />}
            aria-label={t("imageEditor.view.zoomOut")}
            onClick={() => dispatch({ type: "viewMode", viewMode: 3, zoom: zoomOut(state.zoom, longer(current)) })}
          />
          <InputNumber
            size="small"
            aria-label={t("imageEditor.view.zoom")}
            min={ZOOM_MIN}
            max={ZOOM_MAX}
            precision={0}
            value={state.zoom}
            step={zoomStep(state.zoom, longer(current))}
            addonAfter="%"
            style={{ width: 100 }}
            onChange={(value) =>
              typeof value === "number"
                ? dispatch({ type: "viewMode", viewMode: 3, zoom: clampZoom(value) })
                : undefined
            }
          />
          <Button
            size="small"
            icon={<ZoomInOutlined />}
            aria-label={t("imageEditor.view.zoomIn")}
            onClick={() => dispatch({ type: "viewMode", viewMode: 3, zoom: zoomIn(state.zoom, longer(current)) })}
          />
        </Space>
        <Radio.Group
          value={inMode ? state.mode : null}
          optionType="button"
          buttonStyle="solid"
          style={{ marginBottom: 12 }}
          onChange={(event) => enterMode(event.target.value)}
          options={([1, 2, 3, 4, 5] as const).map((mode) => ({
            value: mode,
            label: (
              // A mode the platform's limits rule out for this image says why (spec section 9).
              <span title={current && !featureOk(mode) ? t("imageEditor.mode.tooLarge") : undefined}>
                {t(`imageEditor.mode.${MODE_KEYS[mode]}`)}
              </span>
            ),
            disabled: !state.editable || busy || !featureOk(mode),
          }))}
        />
        {current ? (
          <Typography.Paragraph type="secondary" data-testid="image-size">
            {t("imageEditor.size", { width: current.width, height: current.height })}
          </Typography.Paragraph>
        ) : null}
        {inMode && current ? (
          <Form layout="vertical" size="small" data-testid={`mode-${MODE_KEYS[state.mode as 1]}`}>
            {state.mode === MODES.crop ? <CropPanel aspect={aspect} onAspect={setAspect} /> : null}
            {state.mode === MODES.rotate ? (
              <RotatePanel
                params={rotate}
                onChange={(next) => {
                  setRotate(next);
                  dispatch({ type: "change" });
                }}
              />
            ) : null}
            {state.mode === MODES.colour ? (
              <ColourPanel
                params={colour}
                onChange={(next) => {
                  setColour(next);
                  dispatch({ type: "change" });
                }}
              />
            ) : null}
            {state.mode === MODES.watermark ? <WatermarkPanel params={watermark} onChange={setWatermark} /> : null}
            {state.mode === MODES.resize ? (
              <ResizePanel params={resize} image={current} maxLength={limits.maxResizeLength} onChange={setResize} />
            ) : null}
            <Space style={{ marginTop: 12 }}>
              <Button type="primary" onClick={confirm} disabled={busy || !state.editable} data-testid="mode-confirm">
                {t("imageEditor.confirm")}
              </Button>
              <Button onClick={() => dispatch({ type: "cancel" })} disabled={busy} data-testid="mode-cancel">
                {t("imageEditor.cancel")}
              </Button>
            </Space>
          </Form>
        ) : null}
        <Space style={{ marginTop: 24, display: "flex" }}>
          <Button
            type="primary"
            onClick={() => void save()}
            loading={busy}
            disabled={state.loading}
            data-testid="editor-save"
          >
            {t("imageEditor.save")}
          </Button>
          <Button onClick={onClose} data-testid="editor-close">
            {t("imageEditor.close")}
          </Button>
        </Space>
      </div>
    </div>
  );
}

const longer = (image: { width: number; height: number } | null): number =>
  image ? Math.max(image.width, image.height) : 0;

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
  viewMode: 1 | 2 | 3;
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
