import type { ProColumns } from "@ant-design/pro-components";
import { Tag } from "antd";
import { useTranslation } from "react-i18next";
import {
  DEFAULT_WATERMARK,
  type WatermarkImage,
  type WatermarkPreset,
  type WatermarkSettings,
  watermarkPresetCalls,
} from "../../../../api/presets";
import { dateTimeColumn } from "../../../../components/crud-table/columns";
import { ResourceTable } from "../../../../components/crud-table/resource-table";
import { trimmed } from "../catalogue-shared/form-values";
import { WatermarkFields } from "./components/watermark-fields";
import { WatermarkPreview } from "./components/watermark-preview";

/** The route key of this screen: the permissionId its buttons check. */
const PERMISSION = "manage.setting.watermark";

interface WatermarkForm extends Record<string, unknown> {
  name: string;
  settings: WatermarkSettings;
  /** Absent: keep the stored image. */
  image?: WatermarkImage | null;
}

const toInput = (values: WatermarkForm) => ({
  name: trimmed(values.name),
  settings: { ...DEFAULT_WATERMARK, ...values.settings },
  ...(values.image !== undefined ? { image: values.image } : {}),
});

/** /manage/setting/watermark: watermark presets, with a live preview on a sample picture. */
export default function ManageSettingWatermarkPage() {
  const { t } = useTranslation();
  const columns: ProColumns<WatermarkPreset>[] = [
    { title: t("catalogue.name"), dataIndex: "name" },
    {
      title: t("imageEditor.watermark.type"),
      dataIndex: ["settings", "type"],
      render: (_, preset) =>
        preset.settings.type === 1 ? (
          <Tag>{t("imageEditor.watermark.image")}</Tag>
        ) : (
          <Tag color="blue">{preset.settings.text}</Tag>
        ),
    },
    {
      title: t("imageEditor.watermark.position"),
      dataIndex: ["settings", "position"],
      responsive: ["md"],
      render: (_, preset) => t(`imageEditor.watermark.positions.${preset.settings.position}`),
    },
    {
      title: t("imageEditor.watermark.opacity"),
      dataIndex: ["settings", "opacity"],
      responsive: ["md"],
    },
    dateTimeColumn(t("catalogue.updateTime"), "updatedAt"),
  ];
  return (
    <ResourceTable
      permission={PERMISSION}
      titleKey="presets.watermark.title"
      columns={columns}
      calls={watermarkPresetCalls}
      toInput={toInput}
      newValues={{ settings: DEFAULT_WATERMARK }}
      toFormValues={(preset) => ({ name: preset.name, settings: preset.settings })}
      formFields={(preset) => (
        <>
          <WatermarkPreview t={t} record={preset} />
          <WatermarkFields t={t} record={preset} />
        </>
      )}
    />
  );
}
