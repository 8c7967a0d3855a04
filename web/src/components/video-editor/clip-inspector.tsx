import { ArrowLeftOutlined, ArrowRightOutlined, DeleteOutlined } from "@ant-design/icons";
import { Button, Input, InputNumber, Select, Slider, Space, Switch, Typography } from "antd";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import {
  KEN_BURNS,
  type KenBurnsPreset,
  kenBurns,
  kenBurnsPresetOf,
  moveClip,
  setTransition,
  trimClip,
  updateClip,
  updateText,
} from "./edit-operations";
import { type Clip, clipDuration, type TextOverlay, TRANSITIONS } from "./edl";
import { OutputPanel } from "./output-panel";
import type { VideoEditSession } from "./use-video-edit-session";

export function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div style={{ marginBottom: 8 }}>
      <Typography.Text type="secondary" style={{ display: "block", fontSize: 12 }}>
        {label}
      </Typography.Text>
      {children}
    </div>
  );
}

/** The properties of what is selected: a clip, a title, or (nothing selected) the whole edit. */
export function Inspector({ session }: { session: VideoEditSession }) {
  const { t } = useTranslation();
  if (!session.selectedClip && !session.selectedText) return <OutputPanel session={session} />;
  return (
    <>
      <Button
        type="link"
        size="small"
        style={{ padding: 0, marginBottom: 4 }}
        data-testid="video-inspector-edit"
        onClick={() => session.select(null)}
      >
        {t("videoEditor.inspector.edit")}
      </Button>
      {session.selectedClip ? (
        <ClipPanel session={session} clip={session.selectedClip} />
      ) : session.selectedText ? (
        <TextPanel session={session} text={session.selectedText} />
      ) : null}
    </>
  );
}

function ClipPanel({ session, clip }: { session: VideoEditSession; clip: Clip }) {
  const { t } = useTranslation();
  const { edit, edl } = session;
  const index = edl.clips.findIndex((item) => item.id === clip.id);
  const frame = 1 / (edl.output.fps ?? 25);
  const change = (next: (clip: Clip) => Clip) => edit((value) => updateClip(value, clip.id, next));
  return (
    <div data-testid="video-clip-panel">
      <Space wrap style={{ marginBottom: 8 }}>
        <Button
          size="small"
          icon={<ArrowLeftOutlined />}
          disabled={index <= 0}
          aria-label={t("videoEditor.clip.moveLeft")}
          title={t("videoEditor.clip.moveLeft")}
          onClick={() => edit((value) => moveClip(value, clip.id, -1))}
        />
        <Button
          size="small"
          icon={<ArrowRightOutlined />}
          disabled={index >= edl.clips.length - 1}
          aria-label={t("videoEditor.clip.moveRight")}
          title={t("videoEditor.clip.moveRight")}
          onClick={() => edit((value) => moveClip(value, clip.id, 1))}
        />
        <Button size="small" danger icon={<DeleteOutlined />} onClick={session.removeSelected}>
          {t("videoEditor.delete")}
        </Button>
      </Space>
      {clip.kind === "video" ? (
        <>
          <Space wrap>
            {(["in", "out"] as const).map((end) => (
              <Field key={end} label={t(`videoEditor.clip.${end}`)}>
                <InputNumber
                  data-testid={`video-clip-${end}`}
                  min={0}
                  step={frame}
                  precision={2}
                  value={clip[end]}
                  onChange={(value) =>
                    value != null &&
                    edit((edl) => trimClip(edl, clip.id, { [end]: value }, session.sourceDuration(clip)))
                  }
                />
              </Field>
            ))}
          </Space>
          <Field label={t("videoEditor.clip.volume")}>
            <Space>
              <Slider
                style={{ width: 120 }}
                min={0}
                max={4}
                step={0.1}
                value={clip.volume}
                onChange={(volume) => change((item) => ({ ...item, volume }))}
              />
              <Switch
                checked={clip.muted}
                onChange={(muted) => change((item) => ({ ...item, muted }))}
                checkedChildren={t("videoEditor.clip.muted")}
                unCheckedChildren={t("videoEditor.clip.sound")}
              />
            </Space>
          </Field>
        </>
      ) : (
        <Field label={t("videoEditor.clip.duration")}>
          <InputNumber
            data-testid="video-clip-duration"
            min={0.2}
            max={600}
            step={0.5}
            precision={2}
            value={clip.duration}
            onChange={(duration) => duration != null && change((item) => ({ ...item, duration }) as Clip)}
          />
        </Field>
      )}
      {clip.kind === "image" ? (
        <>
          <Field label={t("videoEditor.clip.kenBurns")}>
            <Select<KenBurnsPreset | "custom">
              style={{ width: "100%" }}
              data-testid="video-clip-kenburns"
              value={kenBurnsPresetOf(clip) ?? "custom"}
              onChange={(preset) =>
                preset !== "custom" && change((item) => ({ ...item, kenBurns: kenBurns(preset) }) as Clip)
              }
              options={KEN_BURNS.map((value) => ({ value, label: t(`videoEditor.kenBurns.${value}`) }))}
            />
          </Field>
          <Field label={t("videoEditor.clip.caption")}>
            <Input.TextArea
              maxLength={500}
              autoSize={{ minRows: 1, maxRows: 3 }}
              value={clip.caption ?? ""}
              onChange={(event) => change((item) => ({ ...item, caption: event.target.value || undefined }) as Clip)}
            />
          </Field>
        </>
      ) : null}
      {clip.kind === "colour" ? (
        <Field label={t("videoEditor.clip.colour")}>
          <input
            type="color"
            value={clip.colour.slice(0, 7)}
            onChange={(event) => change((item) => ({ ...item, colour: event.target.value }) as Clip)}
          />
        </Field>
      ) : null}
      {clip.kind !== "colour" ? (
        <Field label={t("videoEditor.clip.reframe")}>
          <Select
            style={{ width: "100%" }}
            value={clip.reframe.mode}
            onChange={(mode) => change((item) => ({ ...item, reframe: { ...item.reframe, mode } }))}
            options={(["crop", "blur", "fit"] as const).map((value) => ({
              value,
              label: t(`videoEditor.reframe.${value}`),
            }))}
          />
        </Field>
      ) : null}
      {index > 0 ? (
        <Field label={t("videoEditor.clip.transition")}>
          <Space.Compact style={{ width: "100%" }}>
            <Select
              style={{ flex: 1 }}
              data-testid="video-clip-transition"
              value={clip.transition.type}
              onChange={(type) => edit((value) => setTransition(value, clip.id, type, clip.transition.duration || 0.5))}
              options={TRANSITIONS.map((value) => ({ value, label: t(`videoEditor.transition.${value}`) }))}
            />
            <InputNumber
              style={{ width: 90 }}
              min={0.04}
              max={Math.min(5, clipDuration(clip) / 2)}
              step={0.1}
              precision={2}
              disabled={clip.transition.type === "cut"}
              value={clip.transition.duration}
              addonAfter="s"
              onChange={(duration) =>
                duration != null && edit((value) => setTransition(value, clip.id, clip.transition.type, duration))
              }
            />
          </Space.Compact>
        </Field>
      ) : null}
    </div>
  );
}

function TextPanel({ session, text }: { session: VideoEditSession; text: TextOverlay }) {
  const { t } = useTranslation();
  const change = (value: Partial<TextOverlay>) => session.edit((edl) => updateText(edl, text.id, value));
  return (
    <div data-testid="video-text-panel">
      <Field label={t(text.kind === "lowerThird" ? "videoEditor.text.name" : "videoEditor.text.text")}>
        <Input.TextArea
          data-testid="video-text-input"
          maxLength={500}
          autoSize={{ minRows: 1, maxRows: 3 }}
          value={text.text}
          onChange={(event) => change({ text: event.target.value })}
        />
      </Field>
      {text.kind === "lowerThird" ? (
        <Field label={t("videoEditor.text.role")}>
          <Input
            maxLength={500}
            data-testid="video-text-subtitle"
            value={text.subtitle ?? ""}
            onChange={(event) => change({ subtitle: event.target.value || undefined })}
          />
        </Field>
      ) : (
        <Field label={t("videoEditor.text.position")}>
          <Select
            style={{ width: "100%" }}
            value={text.position}
            onChange={(position) => change({ position })}
            options={(["top", "center", "bottom"] as const).map((value) => ({
              value,
              label: t(`videoEditor.text.position.${value}`),
            }))}
          />
        </Field>
      )}
      <Space wrap>
        {(["start", "end"] as const).map((bound) => (
          <Field key={bound} label={t(`videoEditor.text.${bound}`)}>
            <InputNumber
              min={0}
              step={0.1}
              precision={2}
              value={text[bound]}
              onChange={(seconds) => seconds != null && change({ [bound]: seconds })}
            />
          </Field>
        ))}
      </Space>
      <Button size="small" danger icon={<DeleteOutlined />} onClick={session.removeSelected}>
        {t("videoEditor.delete")}
      </Button>
    </div>
  );
}
