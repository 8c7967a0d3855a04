import { Checkbox, DatePicker, Empty, Form, Space, Typography } from "antd";
import dayjs from "dayjs";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useChannelOptions } from "../api/channels";

type ChannelOption = { id: string; name: string };

/**
 * The channel list both publish dialogs show (the viewer's for one story, the grid's for a selection): the
 * enabled channels as checkboxes, each with what `status` says about it (where the story already went, or how
 * many of the selection did), or "no channels" when there are none.
 */
export function PublishChannelsField({
  status,
  required,
  itemTestId,
}: {
  status: (channel: ChannelOption) => ReactNode;
  /** The message shown when none is chosen; absent: choosing none is allowed. */
  required?: string;
  itemTestId?: string;
}) {
  const { t } = useTranslation();
  const options = useChannelOptions();
  const channels = options.data ?? [];
  return (
    <Form.Item
      name="channels"
      label={t("publish.channels")}
      rules={required ? [{ required: true, type: "array", min: 1, message: required }] : undefined}
    >
      {channels.length === 0 && !options.isLoading ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("publish.noChannels")} />
      ) : (
        <Checkbox.Group style={{ display: "flex", flexDirection: "column", gap: 8 }}>
          {channels.map((channel) => (
            <Checkbox key={channel.id} value={channel.id} data-testid={itemTestId}>
              <Space size={4} wrap>
                <span>{channel.name}</span>
                {status(channel)}
              </Space>
            </Checkbox>
          ))}
        </Checkbox.Group>
      )}
    </Form.Item>
  );
}

/** A time field of the publish dialogs ("publish at", "embargo until"): minutes, nothing before today. */
export function PublishTimeField({ name, label, help }: { name: string; label: string; help: string }) {
  return (
    <Form.Item name={name} label={label} extra={help}>
      <DatePicker
        showTime={{ format: "HH:mm" }}
        format="YYYY-MM-DD HH:mm"
        disabledDate={(day) => day.isBefore(dayjs(), "day")}
      />
    </Form.Item>
  );
}

/** The publish dialogs' last line: where to follow the deliveries. */
export function PublishMonitorHint() {
  const { t } = useTranslation();
  return (
    <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0 }}>
      {t("publish.monitorHint")}
    </Typography.Paragraph>
  );
}
