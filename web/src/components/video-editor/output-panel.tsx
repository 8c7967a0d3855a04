import { DeleteOutlined, PictureOutlined } from "@ant-design/icons";
import { Button, Input, InputNumber, Select, Slider, Space, Switch, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { CaptionsPanel } from "./captions-panel";
import { Field } from "./clip-inspector";
import { ASPECTS, EXPORT_PRESETS, outputAspect } from "./edl";
import { LogoPanel } from "./logo-panel";
import { formatTime } from "./preview";
import { storyOf, type VideoEditSession } from "./use-video-edit-session";

/** The edit as a whole: its title, frame and export preset, sound, the music track, the poster frame and the captions. */
export function OutputPanel({ session }: { session: VideoEditSession }) {
  const { t } = useTranslation();
  const { edl, edit } = session;
  const music = edl.music;
  return (
    <div data-testid="video-output-panel">
      <Field label={t("videoEditor.output.title")}>
        <Input
          data-testid="video-title"
          maxLength={200}
          value={edl.title}
          onChange={(event) => {
            const title = event.target.value;
            edit((value) => ({ ...value, title }));
          }}
        />
      </Field>
      <Space wrap>
        <Field label={t("videoEditor.output.aspect")}>
          <Select
            style={{ width: 110 }}
            data-testid="video-aspect"
            value={outputAspect(edl.output)}
            disabled={edl.output.preset === "vertical"}
            onChange={(aspect) => edit((value) => ({ ...value, output: { ...value.output, aspect } }))}
            options={ASPECTS.map((value) => ({ value, label: value }))}
          />
        </Field>
        <Field label={t("videoEditor.output.preset")}>
          <Select
            style={{ width: 170 }}
            data-testid="video-preset"
            value={edl.output.preset}
            onChange={(preset) => edit((value) => ({ ...value, output: { ...value.output, preset } }))}
            options={EXPORT_PRESETS.map((value) => ({ value, label: t(`videoEditor.preset.${value}`) }))}
          />
        </Field>
      </Space>
      <Field label={t("videoEditor.output.normalize")}>
        <Switch
          checked={edl.audio.normalize}
          onChange={(normalize) => edit((value) => ({ ...value, audio: { normalize } }))}
        />
      </Field>
      <Field label={t("videoEditor.output.poster")}>
        <Space wrap>
          <Typography.Text>
            {edl.poster ? formatTime(edl.poster.time) : t("videoEditor.output.posterNone")}
          </Typography.Text>
          <Button
            size="small"
            icon={<PictureOutlined />}
            disabled={session.duration === 0}
            onClick={() => edit((value) => ({ ...value, poster: { time: Math.round(session.playhead * 100) / 100 } }))}
          >
            {t("videoEditor.output.posterHere")}
          </Button>
        </Space>
      </Field>
      {music ? (
        <div data-testid="video-music-panel">
          <Typography.Text strong>
            ♪ {session.sources[storyOf(music.source)]?.title ?? t("videoEditor.track.music")}
          </Typography.Text>
          <Field label={t("videoEditor.music.volume")}>
            <Slider
              min={0}
              max={2}
              step={0.1}
              value={music.volume}
              onChange={(volume) =>
                edit((value) => (value.music ? { ...value, music: { ...value.music, volume } } : value))
              }
            />
          </Field>
          <Space wrap>
            {(["fadeIn", "fadeOut"] as const).map((key) => (
              <Field key={key} label={t(`videoEditor.music.${key}`)}>
                <InputNumber
                  min={0}
                  max={10}
                  step={0.5}
                  value={music[key]}
                  addonAfter="s"
                  style={{ width: 110 }}
                  onChange={(seconds) =>
                    seconds != null &&
                    edit((value) => (value.music ? { ...value, music: { ...value.music, [key]: seconds } } : value))
                  }
                />
              </Field>
            ))}
          </Space>
          <Space wrap>
            <Switch
              checked={music.ducking}
              onChange={(ducking) =>
                edit((value) => (value.music ? { ...value, music: { ...value.music, ducking } } : value))
              }
            />
            <Typography.Text>{t("videoEditor.music.ducking")}</Typography.Text>
            <Button
              size="small"
              danger
              icon={<DeleteOutlined />}
              onClick={() => edit(({ music: _removed, ...value }) => value)}
            >
              {t("videoEditor.music.remove")}
            </Button>
          </Space>
        </div>
      ) : null}
      <LogoPanel session={session} />
      <CaptionsPanel session={session} />
    </div>
  );
}
