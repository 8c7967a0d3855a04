import { DeleteOutlined, PictureOutlined } from "@ant-design/icons";
import { useQuery } from "@tanstack/react-query";
import { Button, Input, Select, Slider, Space, Typography } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { fetchWatermarkImage, presetKeys, useWatermarkPresets, type WatermarkPreset } from "../../api/presets";
import { Field } from "./clip-inspector";
import { ClipPicker } from "./clip-picker";
import { type Edl, LOGO_POSITIONS, type Logo } from "./edl";
import { storyOf, type VideoEditSession } from "./use-video-edit-session";

/** The frame a watermark preset's pixel sizes were set for (spec section 9: a 1080p picture). */
const PRESET_FRAME = { width: 1920, height: 1080 };
const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/** A watermark preset as the edit's logo: its mark, position and opacity; pixel sizes as fractions of a 1080p frame. */
export function logoOfPreset(preset: WatermarkPreset): Logo {
  const { settings } = preset;
  const base = {
    position: settings.position,
    opacity: clamp(Math.round(settings.opacity), 1, 100),
    x: clamp(settings.x / PRESET_FRAME.width, 0, 1),
    y: clamp(settings.y / PRESET_FRAME.height, 0, 1),
    fontSize: clamp(Math.round(settings.fontSize), 1, 1000),
    colour: /^#[0-9a-fA-F]{6}$/.test(settings.color) ? settings.color : "#FFFFFF",
    ...(/^#[0-9a-fA-F]{6}$/.test(settings.background) ? { background: settings.background } : {}),
  };
  if (settings.type === 2) return { ...base, type: 2, text: settings.text.slice(0, 100), sizePercent: 15 };
  const width = preset.image ? (preset.image.width * settings.sizePercent) / 100 : PRESET_FRAME.width * 0.15;
  const sizePercent = clamp(Math.round((width / PRESET_FRAME.width) * 100), 1, 100);
  return { ...base, type: 1, presetId: preset.id, sizePercent };
}

/** A picture of a watermark preset's image mark, for the preview (null until it has loaded). */
export function usePresetImage(presetId: string | undefined): string | null {
  const query = useQuery({
    queryKey: [...presetKeys.all, "image", presetId ?? ""],
    queryFn: () => fetchWatermarkImage(presetId!),
    enabled: !!presetId,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!query.data) return setUrl(null);
    const made = URL.createObjectURL(query.data);
    setUrl(made);
    return () => URL.revokeObjectURL(made);
  }, [query.data]);
  return url;
}

type Choice = "none" | "image" | "text" | `preset:${string}`;

function choiceOf(logo: Logo | undefined): Choice {
  if (!logo) return "none";
  if (logo.presetId && !logo.source) return `preset:${logo.presetId}`;
  return logo.type === 1 ? "image" : "text";
}

/**
 * The station's logo over the whole edit: a watermark preset (the back
 * area's watermark settings), a photo from the library, or a text; its
 * position (the watermark model's positions), opacity and size.
 */
export function LogoPanel({ session }: { session: VideoEditSession }) {
  const { t } = useTranslation();
  const { edl, edit } = session;
  const logo = edl.logo;
  const presets = useWatermarkPresets();
  const [picking, setPicking] = useState(false);
  const setLogo = (change: (logo: Logo) => Logo) =>
    edit((value: Edl) => (value.logo ? { ...value, logo: change(value.logo) } : value));
  const defaults = { position: "lower-right" as const, opacity: 100, x: 0, y: 0, fontSize: 30, colour: "#FFFFFF" };

  const choose = (choice: Choice) => {
    if (choice === "none") return edit(({ logo: _removed, ...value }) => value);
    if (choice === "image") return setPicking(true);
    if (choice === "text")
      return edit((value) => ({
        ...value,
        logo: { ...defaults, type: 2, text: edl.title || "LOGO", sizePercent: 15 },
      }));
    const preset = presets.data?.find((item) => `preset:${item.id}` === choice);
    if (preset) edit((value) => ({ ...value, logo: logoOfPreset(preset) }));
  };

  return (
    <div data-testid="video-logo-panel">
      <Field label={t("videoEditor.logo.title")}>
        <Select<Choice>
          data-testid="video-logo-choice"
          style={{ width: "100%" }}
          value={choiceOf(logo)}
          onChange={choose}
          loading={presets.isLoading}
          options={[
            { value: "none", label: t("videoEditor.logo.none") },
            ...(presets.data ?? []).map((preset) => ({
              value: `preset:${preset.id}` as Choice,
              label: t("videoEditor.logo.preset", { name: preset.name }),
            })),
            { value: "image", label: t("videoEditor.logo.image") },
            { value: "text", label: t("videoEditor.logo.text") },
          ]}
        />
      </Field>
      {logo ? (
        <>
          {logo.source ? (
            <Space wrap style={{ marginBottom: 8 }}>
              <PictureOutlined />
              <Typography.Text>{session.sources[storyOf(logo.source)]?.title ?? logo.source.storyId}</Typography.Text>
              <Button size="small" onClick={() => setPicking(true)}>
                {t("videoEditor.logo.change")}
              </Button>
            </Space>
          ) : null}
          {logo.type === 2 ? (
            <Field label={t("videoEditor.logo.textLabel")}>
              <Input
                data-testid="video-logo-text"
                maxLength={100}
                value={logo.text ?? ""}
                onChange={(event) => {
                  const text = event.target.value;
                  setLogo((value) => ({ ...value, text }));
                }}
              />
            </Field>
          ) : null}
          <Field label={t("imageEditor.watermark.position")}>
            <Select
              data-testid="video-logo-position"
              style={{ width: 160 }}
              value={logo.position}
              onChange={(position) => setLogo((value) => ({ ...value, position }))}
              options={LOGO_POSITIONS.map((value) => ({
                value,
                label: t(`imageEditor.watermark.positions.${value}`),
              }))}
            />
          </Field>
          {logo.position === "arbitrary" ? (
            <Space wrap>
              {(["x", "y"] as const).map((axis) => (
                <Field key={axis} label={t(`videoEditor.logo.${axis}`)}>
                  <Slider
                    style={{ width: 120 }}
                    min={0}
                    max={100}
                    value={Math.round(logo[axis] * 100)}
                    onChange={(percent) => setLogo((value) => ({ ...value, [axis]: percent / 100 }))}
                  />
                </Field>
              ))}
            </Space>
          ) : null}
          <Field label={t("imageEditor.watermark.opacity")}>
            <Slider
              data-testid="video-logo-opacity"
              min={1}
              max={100}
              value={logo.opacity}
              onChange={(opacity) => setLogo((value) => ({ ...value, opacity }))}
            />
          </Field>
          <Field label={logo.type === 1 ? t("videoEditor.logo.size") : t("videoEditor.logo.fontSize")}>
            {logo.type === 1 ? (
              <Slider
                data-testid="video-logo-size"
                min={1}
                max={100}
                value={logo.sizePercent}
                onChange={(sizePercent) => setLogo((value) => ({ ...value, sizePercent }))}
              />
            ) : (
              <Slider
                data-testid="video-logo-size"
                min={8}
                max={200}
                value={logo.fontSize}
                onChange={(fontSize) => setLogo((value) => ({ ...value, fontSize }))}
              />
            )}
          </Field>
          <Button size="small" danger icon={<DeleteOutlined />} onClick={() => choose("none")}>
            {t("videoEditor.logo.remove")}
          </Button>
        </>
      ) : null}
      <ClipPicker
        open={picking}
        types={["photo"]}
        title={t("videoEditor.logo.image")}
        onClose={() => setPicking(false)}
        onPick={(stories) => {
          setPicking(false);
          const story = stories[0];
          if (!story) return;
          session.remember([story]);
          const source = { libraryId: story.libraryId, storyId: story.storyId };
          edit((value) => ({
            ...value,
            logo: { ...defaults, ...(value.logo ?? {}), type: 1, source, presetId: undefined, sizePercent: 15 },
          }));
        }}
      />
    </div>
  );
}
