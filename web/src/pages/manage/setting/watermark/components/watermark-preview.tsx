import { Form, Image, Spin, Typography } from "antd";
import type { TFunction } from "i18next";
import { useEffect, useState } from "react";
import {
  DEFAULT_WATERMARK,
  previewWatermark,
  type WatermarkImage,
  type WatermarkPreset,
  type WatermarkSettings,
} from "../../../../../api/presets";

/** How long the form must rest before the preview is drawn again. */
const SETTLE_MS = 350;

/**
 * The live preview: the sample picture with the watermark as the form holds
 * it, drawn by the server (the same code as the renditions), redrawn when the
 * form has not changed for a moment.
 */
export function WatermarkPreview({ t, record }: { t: TFunction; record?: WatermarkPreset }) {
  const form = Form.useFormInstance();
  const watched = Form.useWatch("settings", form) as Partial<WatermarkSettings> | undefined;
  // The form holds only the fields on screen; the stored ones (the text of an image mark…) complete them.
  const settings: WatermarkSettings | undefined = watched && {
    ...DEFAULT_WATERMARK,
    ...(form.getFieldValue("settings") as Partial<WatermarkSettings>),
    ...watched,
  };
  const image = Form.useWatch("image", form) as WatermarkImage | null | undefined;
  const [url, setUrl] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  const key = JSON.stringify([settings, image?.data.length, image?.data.slice(-64)]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for settings and image.
  useEffect(() => {
    if (!settings) return;
    let cancelled = false;
    let made: string | null = null;
    const timer = setTimeout(() => {
      previewWatermark({ settings, image, presetId: record?.id })
        .then((blob) => {
          if (cancelled) return;
          made = URL.createObjectURL(blob);
          setUrl(made);
          setFailed(false);
        })
        .catch(() => {
          if (!cancelled) setFailed(true);
        });
    }, SETTLE_MS);
    return () => {
      cancelled = true;
      clearTimeout(timer);
      if (made) setTimeout(() => URL.revokeObjectURL(made!), 5_000);
    };
  }, [key, record?.id]);

  const frame = { display: "block", width: "100%", aspectRatio: "3 / 2", borderRadius: 6 } as const;
  return (
    <div data-testid="watermark-preview" style={{ display: "flex", flexDirection: "column", gap: 4, marginBottom: 16 }}>
      <Typography.Text type="secondary">{t("presets.watermark.preview")}</Typography.Text>
      {url ? (
        <Image src={url} alt={t("presets.watermark.preview")} preview={false} style={frame} />
      ) : (
        <div style={{ ...frame, background: "#f5f5f5", display: "grid", placeItems: "center" }}>
          <Spin />
        </div>
      )}
      {failed ? <Typography.Text type="warning">{t("presets.watermark.previewFailed")}</Typography.Text> : null}
    </div>
  );
}
