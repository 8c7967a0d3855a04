import type { ProColumns } from "@ant-design/pro-components";
import { useQueryClient } from "@tanstack/react-query";
import { Button, Modal, Space, Tag, Tooltip, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import {
  type Channel,
  type ChannelKind,
  type ChannelWrite,
  channelKeys,
  createChannel,
  deleteChannel,
  listChannels,
  testChannel,
  updateChannel,
  useLastDeliveries,
} from "../../../../api/channels";
import { DELIVERY_STATE_COLORS } from "../../../../api/publishing";
import { Access } from "../../../../auth/access-component";
import { CrudTable } from "../../../../components/crud-table";
import { useFeedback } from "../../../../components/feedback";
import "../../../../locales/channels";
import { dateTimeColumn } from "../../../../components/crud-table/columns";
import { crudAccess } from "../../../../components/crud-table/resource-table";
import { trimmed } from "../catalogue-shared/form-values";
import { ChannelFields, DEFAULT_SETTINGS } from "./components/channel-fields";

/** The route key of this screen: the permissionId its buttons check. */
const PERMISSION = "manage.setting.tunnel";

export interface ChannelForm extends Record<string, unknown> {
  name: string;
  kind: ChannelKind;
  format: Channel["format"];
  enabled?: boolean;
  settings: Record<string, unknown>;
  credentials?: Record<string, string | null | undefined>;
  fieldMapping?: Record<string, string | undefined>;
  presets?: { photo?: string | null; video?: string | null; audio?: string | null };
}

/** Settings as the server takes them: only the kind's fields, text trimmed, empty optional text left out. */
function cleanSettings(kind: ChannelKind, settings: Record<string, unknown>): Record<string, unknown> {
  const clean: Record<string, unknown> = {};
  // Every kind also takes maxFileMb (the largest file sent); empty: no limit.
  for (const field of [...Object.keys(DEFAULT_SETTINGS[kind]), "maxFileMb"]) {
    const value = settings[field];
    if (typeof value === "string") {
      const text = value.trim();
      if (text === "" && (field === "hostKeySha256" || field === "endpoint")) continue;
      clean[field] = text;
    } else if (value !== undefined && value !== null) clean[field] = value;
  }
  return clean;
}

export function toChannelWrite(values: ChannelForm): ChannelWrite {
  const credentials: Record<string, string | null> = {};
  for (const [field, value] of Object.entries(values.credentials ?? {})) {
    if (value === null || (typeof value === "string" && value !== "")) credentials[field] = value;
  }
  const fieldMapping: Record<string, string> = {};
  for (const [target, source] of Object.entries(values.fieldMapping ?? {})) {
    if (source?.trim()) fieldMapping[target] = source.trim();
  }
  const presets = values.presets ?? {};
  return {
    name: trimmed(values.name),
    kind: values.kind,
    format: values.format,
    enabled: values.enabled ?? true,
    settings: cleanSettings(values.kind, values.settings ?? {}),
    fieldMapping,
    presets: { photo: presets.photo ?? null, video: presets.video ?? null, audio: presets.audio ?? null },
    credentials,
  } as ChannelWrite;
}

/** The channel as it is, written back with one change (credentials absent: kept). */
const rewrite = (channel: Channel, change: Partial<ChannelWrite>): ChannelWrite =>
  ({
    name: channel.name,
    kind: channel.kind,
    format: channel.format,
    enabled: channel.enabled,
    settings: channel.settings,
    fieldMapping: channel.fieldMapping,
    presets: channel.presets,
    ...change,
  }) as ChannelWrite;

/** /manage/setting/tunnel: the publishing channels (spec: tunnels). */
export default function ManageSettingTunnelPage() {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const queryClient = useQueryClient();
  const [modal, modalHolder] = Modal.useModal();
  const [testing, setTesting] = useState<string | null>(null);
  const lastDeliveries = useLastDeliveries();

  const runTest = async (channel: Channel) => {
    setTesting(channel.id);
    try {
      const result = await testChannel(channel.id);
      const content = (
        <div data-testid="channel-test-result">
          <Typography.Paragraph style={{ whiteSpace: "pre-wrap", wordBreak: "break-word" }}>
            {result.reason}
          </Typography.Paragraph>
          <Typography.Text type="secondary">{t("channels.test.duration", { ms: result.durationMs })}</Typography.Text>
        </div>
      );
      const title = t(result.ok ? "channels.test.ok" : "channels.test.failed", { name: channel.name });
      if (result.ok) modal.success({ title, content, okText: t("crud.ok") });
      else modal.error({ title, content, okText: t("crud.ok") });
    } catch {
      // The API client reported it.
    } finally {
      setTesting(null);
    }
  };

  const columns: ProColumns<Channel>[] = [
    { title: t("catalogue.name"), dataIndex: "name" },
    {
      title: t("channels.kind"),
      dataIndex: "kind",
      render: (_, channel) => <Tag>{t(`channels.kind.${channel.kind}`)}</Tag>,
    },
    {
      title: t("channels.format"),
      dataIndex: "format",
      responsive: ["md"],
      render: (_, channel) => t(`channels.format.${channel.format}`),
    },
    {
      title: t("channels.enabled"),
      dataIndex: "enabled",
      render: (_, channel) =>
        channel.enabled ? <Tag color="green">{t("channels.on")}</Tag> : <Tag>{t("channels.off")}</Tag>,
    },
    {
      title: t("channels.lastDelivery"),
      key: "lastDelivery",
      responsive: ["sm"],
      render: (_, channel) => {
        const stats = lastDeliveries.data?.get(channel.id);
        if (!stats?.lastState)
          return <Typography.Text type="secondary">{t("channels.lastDelivery.none")}</Typography.Text>;
        const tag = (
          <Tag color={DELIVERY_STATE_COLORS[stats.lastState]} data-testid="channel-last-state">
            {t(`publish.state.${stats.lastState}`)}
          </Tag>
        );
        return (
          <Space size={4} wrap>
            {stats.lastError && stats.lastState !== "succeeded" ? (
              <Tooltip title={stats.lastError}>{tag}</Tooltip>
            ) : (
              tag
            )}
            {stats.lastAt ? (
              <Typography.Text type="secondary">{new Date(stats.lastAt).toLocaleString()}</Typography.Text>
            ) : null}
          </Space>
        );
      },
    },
    dateTimeColumn(t("catalogue.updateTime"), "updatedAt"),
  ];

  return (
    <>
      {modalHolder}
      <CrudTable<Channel, ChannelForm>
        rowKey="id"
        headerTitle={t("channels.title")}
        columns={columns}
        list={listChannels}
        access={crudAccess(PERMISSION)}
        newValues={{
          kind: "folder",
          format: "ninjs",
          enabled: true,
          settings: { ...DEFAULT_SETTINGS.folder },
          credentials: {},
          fieldMapping: {},
          presets: {},
        }}
        create={async (values) => {
          await createChannel(toChannelWrite(values));
          await queryClient.invalidateQueries({ queryKey: channelKeys.all });
        }}
        update={async (channel, values) => {
          await updateChannel(channel.id, toChannelWrite(values));
          await queryClient.invalidateQueries({ queryKey: channelKeys.all });
        }}
        remove={(channel) => deleteChannel(channel.id)}
        toFormValues={(channel) => ({
          name: channel.name,
          kind: channel.kind,
          format: channel.format,
          enabled: channel.enabled,
          settings: { ...DEFAULT_SETTINGS[channel.kind], ...channel.settings },
          credentials: {},
          fieldMapping: channel.fieldMapping,
          presets: channel.presets,
        })}
        formFields={(channel) => <ChannelFields t={t} record={channel} />}
        rowActions={(channel, reload) => [
          <Button
            key="test"
            type="link"
            size="small"
            loading={testing === channel.id}
            onClick={() => void runTest(channel)}
          >
            {t("channels.test")}
          </Button>,
          <Access key="toggle" action={`${PERMISSION}.edit`}>
            <Button
              type="link"
              size="small"
              onClick={async () => {
                try {
                  await updateChannel(channel.id, rewrite(channel, { enabled: !channel.enabled }));
                } catch {
                  return;
                }
                message.success(
                  t(channel.enabled ? "channels.disabled" : "channels.enabledNow", { name: channel.name }),
                );
                await reload();
              }}
            >
              {t(channel.enabled ? "channels.disable" : "channels.enable")}
            </Button>
          </Access>,
        ]}
      />
    </>
  );
}
