import { Checkbox, DatePicker, Form, Input, InputNumber, Radio, Select } from "antd";
import dayjs, { type Dayjs } from "dayjs";
import { useTranslation } from "react-i18next";
import { useShareablePresets } from "../../api/presets";
import type { ShareSettings } from "../../api/shares";

export interface ShareFormValues {
  title?: string;
  expiresAt?: Dayjs | null;
  never?: boolean;
  password?: string;
  viewLimit?: number | null;
  downloadLimit?: number | null;
  downloadPolicy: "none" | "preview" | "preset" | "original";
  /** With downloadPolicy "preset": the download preset whose rendition visitors get. */
  downloadPresetId?: string;
  metadata: "basic" | "all";
  keepLocation?: boolean;
  message?: string;
  /** The upload drop (a folder share's own folder): visitors may upload files into it. */
  dropOn?: boolean;
  dropMaxFiles?: number | null;
  dropMaxMb?: number | null;
}

/** The folder a drop sends visitors' files to. */
export interface DropFolder {
  libraryId: string;
  folderId: string;
}

export const DEFAULT_SHARE_DAYS = 7;

export function initialShareValues(defaultTitle: string): ShareFormValues {
  return {
    title: defaultTitle,
    expiresAt: dayjs().add(DEFAULT_SHARE_DAYS, "day"),
    never: false,
    downloadPolicy: "preview",
    metadata: "basic",
    keepLocation: false,
  };
}

/** Whether the "keep location and serial numbers" choice matters: metadata shown, or files that carry the camera's tags. */
export function locationMatters(values: Pick<ShareFormValues, "metadata" | "downloadPolicy">): boolean {
  return values.metadata === "all" || values.downloadPolicy === "original" || values.downloadPolicy === "preset";
}

/** The share's options as the API takes them. */
export function shareBody(values: ShareFormValues, dropFolder?: DropFolder) {
  return {
    ...(dropFolder && values.dropOn
      ? {
          uploadDrop: {
            ...dropFolder,
            maxFiles: values.dropMaxFiles ?? null,
            maxBytes: values.dropMaxMb ? Math.round(values.dropMaxMb * 1024 * 1024) : null,
          },
        }
      : {}),
    ...(values.title ? { title: values.title } : {}),
    expiresAt: values.never ? null : (values.expiresAt ?? dayjs().add(DEFAULT_SHARE_DAYS, "day")).toISOString(),
    ...(values.password ? { password: values.password } : {}),
    viewLimit: values.viewLimit ?? null,
    downloadLimit: values.downloadLimit ?? null,
    downloadPolicy: values.downloadPolicy,
    downloadPresetId: values.downloadPolicy === "preset" ? (values.downloadPresetId ?? null) : null,
    metadata: values.metadata,
    keepLocation: locationMatters(values) && Boolean(values.keepLocation),
    message: values.message ? values.message : null,
  };
}

/** The options of a share link (issue 16): expiry, password, limits, downloads, metadata, message. */
export function ShareOptionsFields({
  settings,
  dropFolder,
}: {
  settings: ShareSettings | undefined;
  /** Offer the upload drop into this folder (a folder share). */
  dropFolder?: DropFolder;
}) {
  const { t } = useTranslation();
  const maxDays = settings?.maxDays ?? 90;
  const presets = useShareablePresets();
  return (
    <>
      <Form.Item name="title" label={t("share.form.title")}>
        <Input maxLength={200} data-testid="share-title" />
      </Form.Item>
      <Form.Item label={t("share.form.expiry")} extra={t("share.form.expiryMax", { days: maxDays })}>
        <Form.Item noStyle shouldUpdate={(a, b) => a.never !== b.never}>
          {({ getFieldValue }) => (
            <Form.Item name="expiresAt" noStyle>
              <DatePicker
                showTime={{ format: "HH:mm" }}
                format="YYYY-MM-DD HH:mm"
                allowClear={false}
                disabled={Boolean(getFieldValue("never"))}
                disabledDate={(day) => day.isBefore(dayjs(), "day") || day.isAfter(dayjs().add(maxDays, "day"))}
                data-testid="share-expiry"
              />
            </Form.Item>
          )}
        </Form.Item>
        {settings?.allowNever ? (
          <Form.Item name="never" valuePropName="checked" noStyle>
            <Checkbox style={{ marginInlineStart: 12 }}>{t("share.form.never")}</Checkbox>
          </Form.Item>
        ) : null}
      </Form.Item>
      <Form.Item
        name="password"
        label={t("share.form.password")}
        extra={t("share.form.passwordHint")}
        rules={[{ min: 4, message: t("share.form.passwordMin") }]}
      >
        <Input.Password autoComplete="new-password" maxLength={200} data-testid="share-password" />
      </Form.Item>
      <Form.Item label={t("share.form.limits")} style={{ marginBottom: 0 }}>
        <Form.Item name="viewLimit" style={{ display: "inline-block", marginInlineEnd: 12 }}>
          <InputNumber min={1} max={1_000_000} placeholder={t("share.form.viewLimit")} style={{ width: 150 }} />
        </Form.Item>
        <Form.Item name="downloadLimit" style={{ display: "inline-block" }}>
          <InputNumber min={1} max={1_000_000} placeholder={t("share.form.downloadLimit")} style={{ width: 150 }} />
        </Form.Item>
      </Form.Item>
      <Form.Item name="downloadPolicy" label={t("share.form.downloads")}>
        <Radio.Group data-testid="share-download-policy">
          <Radio value="none">{t("share.download.none")}</Radio>
          <Radio value="preview">{t("share.download.preview")}</Radio>
          <Radio value="preset" disabled={(presets.data ?? []).length === 0}>
            {t("share.download.preset")}
          </Radio>
          <Radio value="original">{t("share.download.original")}</Radio>
        </Radio.Group>
      </Form.Item>
      <Form.Item noStyle shouldUpdate={(a, b) => a.downloadPolicy !== b.downloadPolicy}>
        {({ getFieldValue }) =>
          getFieldValue("downloadPolicy") === "preset" ? (
            <Form.Item
              name="downloadPresetId"
              label={t("share.form.preset")}
              extra={t("share.form.presetHint")}
              rules={[{ required: true, message: t("share.form.presetRequired") }]}
            >
              <Select
                data-testid="share-download-preset"
                loading={presets.isLoading}
                options={(presets.data ?? []).map((preset) => ({
                  value: preset.id,
                  label: `${preset.name} (${t(`share.presetType.${preset.storyType}`)})`,
                }))}
              />
            </Form.Item>
          ) : null
        }
      </Form.Item>
      <Form.Item name="metadata" label={t("share.form.metadata")}>
        <Radio.Group>
          <Radio value="basic">{t("share.metadata.basic")}</Radio>
          <Radio value="all">{t("share.metadata.all")}</Radio>
        </Radio.Group>
      </Form.Item>
      <Form.Item noStyle shouldUpdate={(a, b) => a.metadata !== b.metadata || a.downloadPolicy !== b.downloadPolicy}>
        {({ getFieldValue }) =>
          locationMatters({ metadata: getFieldValue("metadata"), downloadPolicy: getFieldValue("downloadPolicy") }) ? (
            <Form.Item name="keepLocation" valuePropName="checked" wrapperCol={{ offset: 0 }}>
              <Checkbox>{t("share.form.keepLocation")}</Checkbox>
            </Form.Item>
          ) : null
        }
      </Form.Item>
      <Form.Item name="message" label={t("share.form.message")}>
        <Input.TextArea rows={2} maxLength={2000} showCount />
      </Form.Item>
      {dropFolder ? (
        <Form.Item label={t("share.form.drop")} extra={t("share.form.dropHint")} style={{ marginBottom: 8 }}>
          <Form.Item name="dropOn" valuePropName="checked" noStyle>
            <Checkbox data-testid="share-drop-on">{t("share.form.dropOn")}</Checkbox>
          </Form.Item>
          <Form.Item noStyle shouldUpdate={(a, b) => a.dropOn !== b.dropOn}>
            {({ getFieldValue }) =>
              getFieldValue("dropOn") ? (
                <div style={{ display: "flex", flexWrap: "wrap", gap: 12, marginTop: 8 }}>
                  <Form.Item name="dropMaxFiles" noStyle>
                    <InputNumber
                      min={1}
                      max={10000}
                      placeholder={t("share.form.dropMaxFiles")}
                      style={{ width: 160 }}
                    />
                  </Form.Item>
                  <Form.Item name="dropMaxMb" noStyle>
                    <InputNumber min={1} placeholder={t("share.form.dropMaxMb")} style={{ width: 180 }} />
                  </Form.Item>
                </div>
              ) : null
            }
          </Form.Item>
        </Form.Item>
      ) : null}
    </>
  );
}
