import { ProFormDependency, ProFormDigit, ProFormSelect, ProFormSwitch, ProFormText } from "@ant-design/pro-components";
import { useQuery } from "@tanstack/react-query";
import { AutoComplete, Collapse, Form, Typography } from "antd";
import type { TFunction } from "i18next";
import type { ReactNode } from "react";
import {
  CHANNEL_FORMATS,
  CHANNEL_KINDS,
  type Channel,
  type ChannelKind,
  CREDENTIAL_FIELDS,
  MAPPING_SOURCE,
  MAPPING_SOURCES,
  MAPPING_TARGETS,
} from "../../../../../api/channels";
import { downloadPresetCalls, type PresetStoryType, presetKeys, useWatermarkPresets } from "../../../../../api/presets";
import { NameField } from "../../catalogue-shared/fields";
import { CredentialInput } from "./credential-input";

/** What a new channel of each kind starts with (the server's defaults). */
export const DEFAULT_SETTINGS: Record<ChannelKind, Record<string, unknown>> = {
  http: { url: "", timeoutMs: 15_000, signatureHeader: "X-Dams-Signature", sendFiles: true },
  folder: { path: "" },
  sftp: { host: "", port: 22, username: "", directory: ".", hostKeySha256: "", timeoutMs: 15_000 },
  s3: { endpoint: "", region: "us-east-1", bucket: "", prefix: "", forcePathStyle: true },
  email: {
    host: "",
    port: 587,
    secure: false,
    requireTls: false,
    from: "",
    to: [],
    attachFiles: true,
    timeoutMs: 15_000,
  },
};

const S = (field: string) => ["settings", field];
const PRESET_TYPES: PresetStoryType[] = ["photo", "video", "audio"];

function Timeout({ t }: { t: TFunction }) {
  return (
    <ProFormDigit
      name={S("timeoutMs")}
      label={t("channels.settings.timeoutMs")}
      min={1000}
      max={120_000}
      fieldProps={{ precision: 0, step: 1000 }}
      rules={[{ required: true }]}
    />
  );
}

function HostPort({ t }: { t: TFunction }) {
  return (
    <>
      <ProFormText
        name={S("host")}
        label={t("channels.settings.host")}
        rules={[
          { required: true, whitespace: true },
          { pattern: /^[A-Za-z0-9.:[\]-]+$/, message: t("channels.settings.hostInvalid") },
        ]}
      />
      <ProFormDigit
        name={S("port")}
        label={t("channels.settings.port")}
        min={1}
        max={65_535}
        fieldProps={{ precision: 0 }}
        rules={[{ required: true }]}
      />
    </>
  );
}

/** The settings of one kind (what the server's SETTINGS_OF[kind] takes). */
function KindSettings({ kind, t }: { kind: ChannelKind; t: TFunction }): ReactNode {
  switch (kind) {
    case "http":
      return (
        <>
          <ProFormText
            name={S("url")}
            label={t("channels.settings.url")}
            placeholder="https://cms.example.com/dams/inbox"
            rules={[{ required: true }, { type: "url", message: t("channels.settings.urlInvalid") }]}
          />
          <ProFormText
            name={S("signatureHeader")}
            label={t("channels.settings.signatureHeader")}
            rules={[{ required: true }, { pattern: /^[A-Za-z][A-Za-z0-9-]{0,63}$/ }]}
          />
          <ProFormSwitch name={S("sendFiles")} label={t("channels.settings.sendFiles")} />
          <Timeout t={t} />
        </>
      );
    case "folder":
      return (
        <ProFormText
          name={S("path")}
          label={t("channels.settings.path")}
          placeholder="/srv/outbox"
          extra={t("channels.settings.pathHelp")}
          rules={[
            { required: true, whitespace: true },
            { pattern: /^\//, message: t("channels.settings.pathAbsolute") },
          ]}
        />
      );
    case "sftp":
      return (
        <>
          <HostPort t={t} />
          <ProFormText name={S("username")} label={t("channels.settings.username")} rules={[{ required: true }]} />
          <ProFormText name={S("directory")} label={t("channels.settings.directory")} rules={[{ required: true }]} />
          <ProFormText
            name={S("hostKeySha256")}
            label={t("channels.settings.hostKeySha256")}
            extra={t("channels.settings.hostKeyHelp")}
            rules={[{ pattern: /^[A-Za-z0-9+/=]{43,44}$/, message: t("channels.settings.hostKeyInvalid") }]}
          />
          <Timeout t={t} />
        </>
      );
    case "s3":
      return (
        <>
          <ProFormText
            name={S("endpoint")}
            label={t("channels.settings.endpoint")}
            extra={t("channels.settings.endpointHelp")}
            rules={[{ type: "url", message: t("channels.settings.urlInvalid") }]}
          />
          <ProFormText name={S("region")} label={t("channels.settings.region")} rules={[{ required: true }]} />
          <ProFormText
            name={S("bucket")}
            label={t("channels.settings.bucket")}
            rules={[{ required: true }, { min: 3, max: 63 }]}
          />
          <ProFormText name={S("prefix")} label={t("channels.settings.prefix")} />
          <ProFormSwitch name={S("forcePathStyle")} label={t("channels.settings.forcePathStyle")} />
        </>
      );
    case "email":
      return (
        <>
          <HostPort t={t} />
          <ProFormSwitch name={S("secure")} label={t("channels.settings.secure")} />
          <ProFormSwitch name={S("requireTls")} label={t("channels.settings.requireTls")} />
          <ProFormText
            name={S("from")}
            label={t("channels.settings.from")}
            rules={[{ required: true }, { type: "email", message: t("channels.settings.emailInvalid") }]}
          />
          <ProFormSelect
            name={S("to")}
            label={t("channels.settings.to")}
            mode="tags"
            fieldProps={{ tokenSeparators: [",", " ", ";"], open: false }}
            rules={[
              { required: true, type: "array", min: 1, message: t("channels.settings.toRequired") },
              {
                validator: async (_, value: string[] | undefined) => {
                  const bad = (value ?? []).find((address) => !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(address));
                  if (bad) throw new Error(t("channels.settings.emailInvalidNamed", { address: bad }));
                },
              },
            ]}
          />
          <ProFormSwitch name={S("attachFiles")} label={t("channels.settings.attachFiles")} />
          <Timeout t={t} />
        </>
      );
  }
}

/** The download preset a channel delivers per story type; each option says which watermark the preset puts on. */
function PresetPickers({ t }: { t: TFunction }) {
  const presets = useQuery({
    queryKey: [...presetKeys.all, "downloads", "all"],
    queryFn: async () => (await downloadPresetCalls.list({ page: 0, size: 1000 })).content,
  });
  const watermarks = useWatermarkPresets();
  const watermarkName = (id: string | null) =>
    id ? (watermarks.data?.find((watermark) => watermark.id === id)?.name ?? "…") : null;
  return (
    <>
      {PRESET_TYPES.map((type) => (
        <ProFormSelect
          key={type}
          name={["presets", type]}
          label={t("channels.preset", { type: t(`presets.download.storyType.${type}`) })}
          placeholder={t("channels.preset.original")}
          allowClear
          fieldProps={{ loading: presets.isLoading }}
          options={(presets.data ?? [])
            .filter((preset) => preset.storyType === type)
            .map((preset) => {
              const watermark = watermarkName(preset.watermarkPresetId);
              return {
                value: preset.id,
                label: watermark ? t("channels.preset.withWatermark", { name: preset.name, watermark }) : preset.name,
              };
            })}
        />
      ))}
      <Typography.Paragraph type="secondary" style={{ marginTop: -8 }}>
        {t("channels.preset.help")}
      </Typography.Paragraph>
    </>
  );
}

/** Which story field fills each field of the item: a story field or properties.<name>; empty keeps the default. */
function FieldMapping({ t }: { t: TFunction }) {
  const options = MAPPING_SOURCES.map((source) => ({
    value: source,
    label: `${source} · ${t(`channels.source.${source}`)}`,
  }));
  return (
    <>
      <Typography.Paragraph type="secondary">{t("channels.mapping.help")}</Typography.Paragraph>
      {MAPPING_TARGETS.map((target) => (
        <Form.Item
          key={target}
          name={["fieldMapping", target]}
          label={target}
          rules={[{ pattern: MAPPING_SOURCE, message: t("channels.mapping.invalid") }]}
        >
          <AutoComplete
            allowClear
            options={options}
            placeholder={t(`channels.mapping.default.${target}`)}
            filterOption={(input, option) => String(option?.value ?? "").includes(input)}
          />
        </Form.Item>
      ))}
    </>
  );
}

/** The add/edit form of a channel: name, kind and format, the kind's settings and credentials, presets, mapping. */
export function ChannelFields({ t, record }: { t: TFunction; record?: Channel }) {
  const form = Form.useFormInstance();
  return (
    <>
      <NameField t={t} />
      <ProFormSelect
        name="kind"
        label={t("channels.kind")}
        rules={[{ required: true }]}
        options={CHANNEL_KINDS.map((kind) => ({ value: kind, label: t(`channels.kind.${kind}`) }))}
        fieldProps={{
          onChange: (kind: ChannelKind) => {
            form.setFieldValue("settings", { ...DEFAULT_SETTINGS[kind] });
            form.setFieldValue("credentials", {});
          },
        }}
      />
      <ProFormSelect
        name="format"
        label={t("channels.format")}
        rules={[{ required: true }]}
        options={CHANNEL_FORMATS.map((format) => ({ value: format, label: t(`channels.format.${format}`) }))}
      />
      <ProFormSwitch name="enabled" label={t("channels.enabled")} />
      <ProFormDependency name={["kind"]}>
        {({ kind }: { kind?: ChannelKind }) => {
          const current = kind ?? "folder";
          // Credentials stored for another kind do not carry over; the server keeps only this kind's fields.
          const stored = record && record.kind === current ? record.credentialsSet : [];
          return (
            <>
              <KindSettings kind={current} t={t} />
              <ProFormDigit
                name={S("maxFileMb")}
                label={t("channels.settings.maxFileMb")}
                extra={t("channels.settings.maxFileMbHelp")}
                min={1}
                max={1_000_000}
                fieldProps={{ precision: 0 }}
              />
              {CREDENTIAL_FIELDS[current].map((field) => (
                <Form.Item
                  key={`${current}-${field}`}
                  name={["credentials", field]}
                  label={t(`channels.credential.${field}`)}
                >
                  <CredentialInput t={t} isSet={stored.includes(field)} multiline={field === "privateKey"} />
                </Form.Item>
              ))}
            </>
          );
        }}
      </ProFormDependency>
      <Collapse
        size="small"
        items={[
          { key: "presets", label: t("channels.presets"), children: <PresetPickers t={t} />, forceRender: true },
          { key: "mapping", label: t("channels.mapping"), children: <FieldMapping t={t} />, forceRender: true },
        ]}
      />
    </>
  );
}
