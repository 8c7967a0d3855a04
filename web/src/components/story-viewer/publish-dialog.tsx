import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Form, Modal, Space, Tag } from "antd";
import dayjs, { type Dayjs } from "dayjs";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { DELIVERY_STATE_COLORS, type Delivery, storyDeliveriesQuery } from "../../api/publishing";
import { storyKeys } from "../../api/stories";
import { publishStory } from "../../api/story-detail";
import { useFeedback } from "../feedback";
import { PublishChannelsField, PublishMonitorHint, PublishTimeField } from "../publish-fields";

interface PublishValues {
  channels?: string[];
  publishAt?: Dayjs | null;
  embargoUntil?: Dayjs | null;
}

/**
 * The viewer's publish dialog: the enabled channels to send the story to (each with where the story already
 * went: its newest delivery there), an optional "publish at" and embargo. Without channels the story is only
 * marked published, as before channels existed.
 */
export function PublishDialog({
  libraryId,
  storyId,
  onClose,
}: {
  libraryId: string;
  storyId: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<PublishValues>();
  const [sending, setSending] = useState(false);
  const history = useQuery(storyDeliveriesQuery(libraryId, storyId));
  /** The newest delivery of the story per channel (the list is newest first). */
  const latest = new Map<string, Delivery>();
  for (const delivery of history.data?.deliveries ?? [])
    if (!latest.has(delivery.channelId)) latest.set(delivery.channelId, delivery);

  const submit = async (values: PublishValues) => {
    setSending(true);
    try {
      await publishStory(
        { libraryId, storyId },
        {
          channels: values.channels ?? [],
          ...(values.publishAt ? { publishAt: values.publishAt.toISOString() } : {}),
          ...(values.embargoUntil ? { embargoUntil: values.embargoUntil.toISOString() } : {}),
        },
      );
    } catch {
      setSending(false);
      return;
    }
    setSending(false);
    message.success(
      values.channels?.length ? t("publish.sent", { count: values.channels.length }) : t("stories.published"),
    );
    void queryClient.invalidateQueries({ queryKey: storyKeys.all });
    void queryClient.invalidateQueries({ queryKey: ["deliveries"] });
    onClose();
  };

  return (
    <Modal
      open
      title={t("publish.title")}
      okText={t("stories.publish")}
      cancelText={t("crud.cancel")}
      confirmLoading={sending}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
      data-testid="publish-dialog"
    >
      <Form<PublishValues> form={form} layout="vertical" onFinish={(values) => void submit(values)}>
        <PublishChannelsField
          status={(channel) => {
            const last = latest.get(channel.id);
            return last ? (
              <Tag color={DELIVERY_STATE_COLORS[last.state]} title={last.lastError ?? undefined}>
                {t(last.action === "kill" ? "publish.withdrawnState" : "publish.sentState", {
                  state: t(`publish.state.${last.state}`),
                  time: dayjs(last.updatedAt).format("YYYY-MM-DD HH:mm"),
                })}
              </Tag>
            ) : null;
          }}
        />
        <Space wrap size="large">
          <PublishTimeField name="publishAt" label={t("publish.at")} help={t("publish.atHelp")} />
          <PublishTimeField name="embargoUntil" label={t("publish.embargo")} help={t("publish.embargoHelp")} />
        </Space>
        {history.data?.embargoUntil && dayjs(history.data.embargoUntil).isAfter(dayjs()) ? (
          <Alert
            type="warning"
            showIcon
            message={t("publish.embargoed", { time: dayjs(history.data.embargoUntil).format("YYYY-MM-DD HH:mm") })}
          />
        ) : null}
        <PublishMonitorHint />
      </Form>
    </Modal>
  );
}
