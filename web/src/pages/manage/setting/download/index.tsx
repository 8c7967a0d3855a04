import type { ProColumns } from "@ant-design/pro-components";
import { Tag } from "antd";
import { useTranslation } from "react-i18next";
import {
  type DownloadPreset,
  type DownloadPresetInput,
  downloadPresetCalls,
  type RenditionSettings,
} from "../../../../api/presets";
import { dateTimeColumn } from "../../../../components/crud-table/columns";
import { ResourceTable } from "../../../../components/crud-table/resource-table";
import { trimmed } from "../catalogue-shared/form-values";
import { DownloadPresetFields } from "./components/download-preset-fields";

/** The route key of this screen: the permissionId its buttons check. */
const PERMISSION = "manage.setting.download";

const DEFAULT_SETTINGS: RenditionSettings = {
  format: "jpeg",
  maxWidth: 1600,
  maxHeight: null,
  quality: 85,
  srgb: true,
  metadata: "rights",
  videoBitrateKbps: 4000,
  audioBitrateKbps: 128,
};

type DownloadForm = Omit<DownloadPresetInput, "settings" | "watermarkPresetId"> &
  Record<string, unknown> & { settings: Partial<RenditionSettings>; watermarkPresetId?: string | null };

const toInput = (values: DownloadForm): DownloadPresetInput => ({
  name: trimmed(values.name),
  storyType: values.storyType,
  settings: {
    ...DEFAULT_SETTINGS,
    ...values.settings,
    maxWidth: values.settings.maxWidth ?? null,
    maxHeight: values.settings.maxHeight ?? null,
  },
  watermarkPresetId: values.storyType === "audio" ? null : (values.watermarkPresetId ?? null),
  roleIds: values.roleIds ?? [],
  enabled: values.enabled ?? true,
});

/** A preset's rendition in a few words: `WebP · 1200 × – · q85`. */
function summary(preset: DownloadPreset, t: (key: string) => string): string {
  const { settings } = preset;
  const box =
    settings.maxWidth || settings.maxHeight ? `${settings.maxWidth ?? "–"} × ${settings.maxHeight ?? "–"}` : null;
  const rate =
    preset.storyType === "photo"
      ? `q${settings.quality}`
      : preset.storyType === "video"
        ? `${settings.videoBitrateKbps} kbps`
        : `${settings.audioBitrateKbps} kbps`;
  return [t(`presets.download.format.${settings.format}`), box, rate].filter(Boolean).join(" · ");
}

/** /manage/setting/download: download presets (named renditions). */
export default function ManageSettingDownloadPage() {
  const { t } = useTranslation();
  const columns: ProColumns<DownloadPreset>[] = [
    { title: t("catalogue.name"), dataIndex: "name" },
    {
      title: t("presets.download.storyType"),
      dataIndex: "storyType",
      render: (_, preset) => t(`presets.download.storyType.${preset.storyType}`),
    },
    { title: t("presets.download.rendition"), key: "rendition", render: (_, preset) => summary(preset, t) },
    {
      title: t("presets.download.enabled"),
      dataIndex: "enabled",
      responsive: ["md"],
      render: (_, preset) =>
        preset.enabled ? <Tag color="green">{t("presets.download.on")}</Tag> : <Tag>{t("presets.download.off")}</Tag>,
    },
    dateTimeColumn(t("catalogue.updateTime"), "updatedAt"),
  ];
  return (
    <ResourceTable
      permission={PERMISSION}
      titleKey="presets.download.title"
      columns={columns}
      calls={downloadPresetCalls}
      toInput={toInput}
      newValues={{
        storyType: "photo",
        settings: DEFAULT_SETTINGS,
        roleIds: [],
        enabled: true,
        watermarkPresetId: null,
      }}
      toFormValues={(preset) => ({
        name: preset.name,
        storyType: preset.storyType,
        settings: preset.settings,
        watermarkPresetId: preset.watermarkPresetId,
        roleIds: preset.roleIds,
        enabled: preset.enabled,
      })}
      formFields={() => <DownloadPresetFields t={t} />}
    />
  );
}
