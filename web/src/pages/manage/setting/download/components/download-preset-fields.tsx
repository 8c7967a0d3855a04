import { ProFormDependency, ProFormDigit, ProFormSelect, ProFormSwitch } from "@ant-design/pro-components";
import { Form, Space } from "antd";
import type { TFunction } from "i18next";
import { useAllRoles } from "../../../../../api/identity-admin";
import { type PresetStoryType, useWatermarkPresets } from "../../../../../api/presets";
import { NameField } from "../../catalogue-shared/fields";

export const STORY_TYPES: PresetStoryType[] = ["photo", "video", "audio"];
/** The formats of each story type; the first is what a new choice of type starts with. */
export const FORMATS: Record<PresetStoryType, string[]> = {
  photo: ["jpeg", "webp", "png", "avif"],
  video: ["mp4"],
  audio: ["aac", "mp3"],
};
const S = (field: string) => ["settings", field];

function StoryTypeField({ t }: { t: TFunction }) {
  const form = Form.useFormInstance();
  return (
    <ProFormSelect
      name="storyType"
      label={t("presets.download.storyType")}
      rules={[{ required: true }]}
      options={STORY_TYPES.map((type) => ({ value: type, label: t(`presets.download.storyType.${type}`) }))}
      fieldProps={{
        onChange: (type: PresetStoryType) => {
          form.setFieldValue(S("format"), FORMATS[type][0]);
          if (type === "audio") form.setFieldValue("watermarkPresetId", null);
        },
      }}
    />
  );
}

/** A download preset's form: what the rendition is, its watermark, who may use it. */
export function DownloadPresetFields({ t }: { t: TFunction }) {
  const watermarks = useWatermarkPresets();
  const roles = useAllRoles();
  return (
    <>
      <NameField t={t} />
      <StoryTypeField t={t} />
      <ProFormDependency name={["storyType"]}>
        {({ storyType }: { storyType?: PresetStoryType }) => {
          const type = storyType ?? "photo";
          return (
            <>
              <ProFormSelect
                name={S("format")}
                label={t("presets.download.format")}
                rules={[{ required: true }]}
                options={FORMATS[type].map((format) => ({
                  value: format,
                  label: t(`presets.download.format.${format}`),
                }))}
              />
              {type !== "audio" ? (
                <Space wrap>
                  <ProFormDigit
                    name={S("maxWidth")}
                    label={t("presets.download.maxWidth")}
                    min={16}
                    max={20000}
                    placeholder={t("presets.download.noLimit")}
                    fieldProps={{ precision: 0 }}
                  />
                  <ProFormDigit
                    name={S("maxHeight")}
                    label={t("presets.download.maxHeight")}
                    min={16}
                    max={20000}
                    placeholder={t("presets.download.noLimit")}
                    fieldProps={{ precision: 0 }}
                  />
                </Space>
              ) : null}
              {type === "photo" ? (
                <>
                  <Space wrap>
                    <ProFormDigit
                      name={S("quality")}
                      label={t("presets.download.quality")}
                      min={1}
                      max={100}
                      fieldProps={{ precision: 0 }}
                    />
                    <ProFormSwitch name={S("srgb")} label={t("presets.download.srgb")} />
                  </Space>
                  <ProFormSelect
                    name={S("metadata")}
                    label={t("presets.download.metadata")}
                    extra={t("presets.download.metadata.help")}
                    options={["rights", "all", "none"].map((value) => ({
                      value,
                      label: t(`presets.download.metadata.${value}`),
                    }))}
                  />
                </>
              ) : null}
              {type !== "photo" ? (
                <Space wrap>
                  {type === "video" ? (
                    <ProFormDigit
                      name={S("videoBitrateKbps")}
                      label={t("presets.download.videoBitrate")}
                      min={100}
                      max={100000}
                      fieldProps={{ precision: 0 }}
                    />
                  ) : null}
                  <ProFormDigit
                    name={S("audioBitrateKbps")}
                    label={t("presets.download.audioBitrate")}
                    min={32}
                    max={512}
                    fieldProps={{ precision: 0 }}
                  />
                </Space>
              ) : null}
              {type !== "audio" ? (
                <ProFormSelect
                  name="watermarkPresetId"
                  label={t("presets.download.watermark")}
                  allowClear
                  placeholder={t("presets.download.noWatermark")}
                  options={(watermarks.data ?? []).map((preset) => ({ value: preset.id, label: preset.name }))}
                  fieldProps={{ loading: watermarks.isFetching }}
                />
              ) : null}
            </>
          );
        }}
      </ProFormDependency>
      <ProFormSelect
        name="roleIds"
        label={t("presets.download.roles")}
        mode="multiple"
        placeholder={t("presets.download.everyRole")}
        options={(roles.data ?? []).map((role) => ({ value: role.id, label: role.name }))}
        fieldProps={{ loading: roles.isFetching }}
      />
      <ProFormSwitch name="enabled" label={t("presets.download.enabled")} />
    </>
  );
}
