import {
  ExpandOutlined,
  FolderOpenOutlined,
  RedoOutlined,
  UndoOutlined,
  ZoomInOutlined,
  ZoomOutOutlined,
} from "@ant-design/icons";
import { Button, Form, InputNumber, Radio, Space, Tooltip, Typography, Upload } from "antd";
import { useTranslation } from "react-i18next";
import { EDIT_MODES, isEditMode, MODE_NAMES } from "./mode-operations";
import { ColourPanel, CropPanel, ResizePanel, RotatePanel } from "./mode-panels";
import {
  acceptAttribute,
  clampZoom,
  PICK_IMAGE_EXTENSIONS,
  ZOOM_MAX,
  ZOOM_MIN,
  zoomIn,
  zoomOut,
  zoomStep,
} from "./rules";
import { canRedo, canReset, canUndo, MODES } from "./session";
import type { EditorSession } from "./use-editor-session";
import { WatermarkPanel } from "./watermark-panel";

/** Spec section 9: the editor panel is 425 px wide. */
export const PANEL_WIDTH = 425;

const longer = (image: { width: number; height: number } | null): number =>
  image ? Math.max(image.width, image.height) : 0;

/**
 * The editor's panel: undo, redo, reset and another image; the view mode and
 * zoom; the five modes with the open mode's parameters; save and close.
 */
export function EditorToolbar({ session, onClose }: { session: EditorSession; onClose: () => void }) {
  const { t } = useTranslation();
  const { state, dispatch, busy } = session;
  const current = state.current;
  return (
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
            session.pickImage(file);
            return false;
          }}
        >
          <Button icon={<FolderOpenOutlined />} data-testid="pick-image">
            {t("imageEditor.pickImage")}
          </Button>
        </Upload>
      </Space>
      <ViewControls session={session} />
      <Radio.Group
        value={isEditMode(state.mode) ? state.mode : null}
        optionType="button"
        buttonStyle="solid"
        style={{ marginBottom: 12 }}
        onChange={(event) => dispatch({ type: "enterMode", mode: event.target.value })}
        options={EDIT_MODES.map((mode) => ({
          value: mode,
          label: (
            // A mode the platform's limits rule out for this image says why (spec section 9).
            <span title={current && !session.modeAllowed(mode) ? t("imageEditor.mode.tooLarge") : undefined}>
              {t(`imageEditor.mode.${MODE_NAMES[mode]}`)}
            </span>
          ),
          disabled: !state.editable || busy || !session.modeAllowed(mode),
        }))}
      />
      {current ? (
        <Typography.Paragraph type="secondary" data-testid="image-size">
          {t("imageEditor.size", { width: current.width, height: current.height })}
        </Typography.Paragraph>
      ) : null}
      {isEditMode(state.mode) && current ? <ModeForm session={session} /> : null}
      <Space style={{ marginTop: 24, display: "flex" }}>
        <Button
          type="primary"
          onClick={() => void session.save()}
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
  );
}

/** Fit, actual size or a percent zoom, with the zoom's steps (spec section 4). */
function ViewControls({ session }: { session: EditorSession }) {
  const { t } = useTranslation();
  const { state, dispatch } = session;
  const side = longer(state.current);
  return (
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
        onClick={() => dispatch({ type: "viewMode", viewMode: 3, zoom: zoomOut(state.zoom, side) })}
      />
      <InputNumber
        size="small"
        aria-label={t("imageEditor.view.zoom")}
        min={ZOOM_MIN}
        max={ZOOM_MAX}
        precision={0}
        value={state.zoom}
        step={zoomStep(state.zoom, side)}
        addonAfter="%"
        style={{ width: 100 }}
        onChange={(value) =>
          typeof value === "number" ? dispatch({ type: "viewMode", viewMode: 3, zoom: clampZoom(value) }) : undefined
        }
      />
      <Button
        size="small"
        icon={<ZoomInOutlined />}
        aria-label={t("imageEditor.view.zoomIn")}
        onClick={() => dispatch({ type: "viewMode", viewMode: 3, zoom: zoomIn(state.zoom, side) })}
      />
    </Space>
  );
}

/** The open mode's parameters, with confirm and cancel. */
function ModeForm({ session }: { session: EditorSession }) {
  const { t } = useTranslation();
  const { state, dispatch, busy } = session;
  const { params, current } = state;
  if (!isEditMode(state.mode) || !current) return null;
  return (
    <Form layout="vertical" size="small" data-testid={`mode-${MODE_NAMES[state.mode]}`}>
      {state.mode === MODES.crop ? (
        <CropPanel aspect={params.aspect} onAspect={(aspect) => dispatch({ type: "aspect", aspect })} />
      ) : null}
      {state.mode === MODES.rotate ? (
        <RotatePanel params={params.rotate} onChange={(rotate) => dispatch({ type: "rotate", rotate })} />
      ) : null}
      {state.mode === MODES.colour ? (
        <ColourPanel params={params.colour} onChange={(colour) => dispatch({ type: "colour", colour })} />
      ) : null}
      {state.mode === MODES.watermark ? (
        <WatermarkPanel
          params={params.watermark}
          onChange={(watermark) => dispatch({ type: "watermark", watermark })}
        />
      ) : null}
      {state.mode === MODES.resize ? (
        <ResizePanel
          params={params.resize}
          image={current}
          maxLength={state.limits.maxResizeLength}
          onChange={(resize) => dispatch({ type: "resize", resize })}
        />
      ) : null}
      <Space style={{ marginTop: 12 }}>
        <Button type="primary" onClick={session.confirm} disabled={busy || !state.editable} data-testid="mode-confirm">
          {t("imageEditor.confirm")}
        </Button>
        <Button onClick={() => dispatch({ type: "cancel" })} disabled={busy} data-testid="mode-cancel">
          {t("imageEditor.cancel")}
        </Button>
      </Space>
    </Form>
  );
}
