import { DeleteOutlined, PlusOutlined, UploadOutlined } from "@ant-design/icons";
import { Button, Input, InputNumber, Select, Space, Typography, Upload } from "antd";
import { useTranslation } from "react-i18next";
import type { CaptionCue, Captions } from "../../../../server/src/modules/video-edit/edl.schema";
import { useFeedback } from "../feedback";
import { parseCaptionFile } from "./caption-files";
import { Field } from "./clip-inspector";
import type { VideoEditSession } from "./use-video-edit-session";

const NEW_CUE_SECONDS = 2;

/** The edit's captions: import SRT/WebVTT, edit each cue's text and timing, burn them in or keep them as a sidecar. */
export function CaptionsPanel({ session }: { session: VideoEditSession }) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const { edl, edit } = session;
  const captions: Captions = edl.captions ?? { mode: "burn", cues: [] };
  const setCues = (change: (cues: CaptionCue[]) => CaptionCue[]) =>
    edit((value) => {
      const current = value.captions ?? { mode: "burn" as const, cues: [] };
      const cues = change(current.cues);
      if (cues.length === 0) {
        const { captions: _removed, ...rest } = value;
        return rest;
      }
      return { ...value, captions: { ...current, cues: [...cues].sort((a, b) => a.start - b.start) } };
    });
  const setCue = (index: number, patch: Partial<CaptionCue>) =>
    setCues((cues) => cues.map((cue, at) => (at === index ? { ...cue, ...patch } : cue)));
  const importFile = async (file: File) => {
    const cues = parseCaptionFile(await file.text());
    if (cues.length === 0) message.error(t("videoEditor.captions.empty", { name: file.name }));
    else {
      setCues(() => cues);
      message.success(t("videoEditor.captions.imported", { count: cues.length }));
    }
    return false; // read here, never uploaded
  };
  const start = Math.round(session.playhead * 100) / 100;
  return (
    <div data-testid="video-captions-panel">
      <Typography.Text strong>{t("videoEditor.captions.title")}</Typography.Text>
      <Space wrap style={{ display: "flex", margin: "4px 0 8px" }}>
        <Select
          style={{ width: 150 }}
          data-testid="video-captions-mode"
          value={captions.mode}
          disabled={captions.cues.length === 0}
          onChange={(mode) =>
            edit((value) => (value.captions ? { ...value, captions: { ...value.captions, mode } } : value))
          }
          options={(["burn", "sidecar"] as const).map((mode) => ({
            value: mode,
            label: t(`videoEditor.captions.${mode}`),
          }))}
        />
        <Upload accept=".srt,.vtt,text/vtt" showUploadList={false} beforeUpload={importFile}>
          <Button size="small" icon={<UploadOutlined />} data-testid="video-captions-import">
            {t("videoEditor.captions.import")}
          </Button>
        </Upload>
        <Button
          size="small"
          icon={<PlusOutlined />}
          data-testid="video-captions-add"
          onClick={() =>
            setCues((cues) => [
              ...cues,
              { start, end: start + NEW_CUE_SECONDS, text: t("videoEditor.captions.newCue") },
            ])
          }
        >
          {t("videoEditor.captions.add")}
        </Button>
      </Space>
      {captions.cues.map((cue, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: cues have no identity; a key from their times would remount the field being typed in
        <div key={index} data-testid="video-caption-cue" style={{ marginBottom: 8 }}>
          <Space wrap size={4}>
            {(["start", "end"] as const).map((key) => (
              <InputNumber
                key={key}
                size="small"
                min={0}
                step={0.1}
                style={{ width: 90 }}
                aria-label={t(`videoEditor.captions.${key}`)}
                value={cue[key]}
                onChange={(seconds) => seconds != null && setCue(index, { [key]: seconds })}
              />
            ))}
            <Button
              size="small"
              danger
              icon={<DeleteOutlined />}
              aria-label={t("videoEditor.captions.remove")}
              onClick={() => setCues((cues) => cues.filter((_, at) => at !== index))}
            />
          </Space>
          <Field label={t("videoEditor.captions.text")}>
            <Input.TextArea
              autoSize={{ minRows: 1, maxRows: 3 }}
              maxLength={500}
              value={cue.text}
              onChange={(event) => setCue(index, { text: event.target.value })}
            />
          </Field>
        </div>
      ))}
    </div>
  );
}
