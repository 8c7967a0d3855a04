import { Checkbox, DatePicker, Form, Input, InputNumber, Radio } from "antd";
import dayjs, { type Dayjs } from "dayjs";
import { useTranslation } from "react-i18next";
import type { ShareSettings } from "../../api/shares";

export interface ShareFormValues {
  title?: string;
  expiresAt?: Dayjs | null;
  never?: boolean;
  password?: string;
  viewLimit?: number | null;
  downloadLimit?: number | null;
  downloadPolicy: "none" | "preview" | "original";
  metadata: "basic" | "all";
  keepLocation?: boolean;
  message?: string;
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

/** The share's options as the API takes them. */
export function shareBody(values: ShareFormValues) {
  return {
    ...(values.title ? { title: values.title } : {}),
    expiresAt: values.never ? null : (values.expiresAt ?? dayjs().add(DEFAULT_SHARE_DAYS, "day")).toISOString(),
    ...(values.password ? { password: values.password } : {}),
    viewLimit: values.viewLimit ?? null,
    downloadLimit: values.downloadLimit ?? null,
    downloadPolicy: values.downloadPolicy,
    metadata: values.metadata,
    keepLocation: values.metadata === "all" && Boolean(values.keepLocation),
    message: values.message ? values.message : null,
  };
}

/** The options of a share link (issue 16): expiry, password, limits, downloads, metadata, message. */
export function ShareOptionsFields({ settings }: { settings: ShareSettings | undefined }) {
  const { t } = useTranslation();
  const maxDays = settings?.maxDays ?? 90;
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
          <Radio value="original">{t("share.download.original")}</Radio>
        </Radio.Group>
      </Form.Item>
      <Form.Item name="metadata" label={t("share.form.metadata")}>
        <Radio.Group>
          <Radio value="basic">{t("share.metadata.basic")}</Radio>
          <Radio value="all">{t("share.metadata.all")}</Radio>
        </Radio.Group>
      </Form.Item>
      <Form.Item noStyle shouldUpdate={(a, b) => a.metadata !== b.metadata}>
        {({ getFieldValue }) =>
          getFieldValue("metadata") === "all" ? (
            <Form.Item name="keepLocation" valuePropName="checked" wrapperCol={{ offset: 0 }}>
              <Checkbox>{t("share.form.keepLocation")}</Checkbox>
            </Form.Item>
          ) : null
        }
      </Form.Item>
      <Form.Item name="message" label={t("share.form.message")}>
        <Input.TextArea rows={2} maxLength={2000} showCount />
      </Form.Item>
    </>
  );
}
