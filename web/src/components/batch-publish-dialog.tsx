import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Checkbox, DatePicker, Empty, Form, List, Modal, Space, Tag, Typography } from "antd";
import dayjs, { type Dayjs } from "dayjs";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { api, call } from "../api/client";
import {
  type BatchPublishResult,
  deliveryKeys,
  fetchDeliveredCounts,
  publishSelection,
  type StoryRef,
} from "../api/publishing";
import { storyKeys } from "../api/stories";
import { useFeedback } from "./feedback";

interface Values {
  channels?: string[];
  publishAt?: Dayjs | null;
}

/** One story's outcome in words: queued, or why it was refused. */
function outcomeText(t: (key: string, params?: Record<string, unknown>) => string, result: BatchPublishResult): string {
  if (result.ok) return t("publish.batch.ok", { count: result.deliveryIds.length });
  if (result.code === "embargoed" && result.embargoUntil)
    return t("publish.batch.embargoed", { time: dayjs(result.embargoUntil).format("YYYY-MM-DD HH:mm") });
  if (result.code === "not_committed") return t("publish.batch.notCommitted");
  if (result.code === "forbidden" || result.code === "not_found") return t("publish.batch.forbidden");
  return t("publish.batch.refused", { reason: result.message ?? result.code ?? "" });
}

/**
 * The grid's publish dialog: the enabled channels, each with how many of the selected stories already went
 * there, and an optional "publish at"; then per story what happened (its deliveries queued, or why it was
 * refused: an embargo with its end, a draft, a story the user may not publish).
 */
export function BatchPublishDialog({
  stories,
  onClose,
}: {
  stories: readonly (StoryRef & { title?: string | null })[];
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<Values>();
  const [sending, setSending] = useState(false);
  const [results, setResults] = useState<BatchPublishResult[] | null>(null);
  const refs = stories.map(({ libraryId, storyId }) => ({ libraryId, storyId }));
  const options = useQuery({
    queryKey: ["channels", "options"],
    queryFn: () => call(api.GET("/dams/api/v1/channels/options")),
  });
  const counts = useQuery({
    queryKey: [...deliveryKeys.all, "delivered-counts", refs.map((ref) => ref.storyId).join(",")],
    queryFn: () => fetchDeliveredCounts(refs),
  });
  const sent = new Map((counts.data ?? []).map((row) => [row.channelId, row.stories]));

  const submit = async (values: Values) => {
    setSending(true);
    try {
      const answer = await publishSelection({
        stories: refs,
        channels: values.channels ?? [],
        ...(values.publishAt ? { publishAt: values.publishAt.toISOString() } : {}),
      });
      setResults(answer);
      const ok = answer.filter((result) => result.ok).length;
      const summary = t("publish.batch.summary", { ok, refused: answer.length - ok });
      if (ok === answer.length) message.success(summary);
      else message.warning(summary);
      await queryClient.invalidateQueries({ queryKey: storyKeys.all });
      await queryClient.invalidateQueries({ queryKey: deliveryKeys.all });
    } catch {
      // The API client reported it.
    } finally {
      setSending(false);
    }
  };

  const titleOf = (result: BatchPublishResult) =>
    result.title ?? stories.find((story) => story.storyId === result.storyId)?.title ?? result.storyId;
  const channels = options.data ?? [];
  return (
    <Modal
      open
      title={t("publish.batch.title", { count: stories.length })}
      okText={results ? t("publish.batch.close") : t("stories.publish")}
      cancelText={t("crud.cancel")}
      cancelButtonProps={results ? { style: { display: "none" } } : {}}
      confirmLoading={sending}
      onOk={() => (results ? onClose() : form.submit())}
      onCancel={onClose}
      destroyOnHidden
    >
      <div data-testid="batch-publish-body">
        {results ? (
          <List
            size="small"
            header={<Typography.Text strong>{t("publish.batch.results")}</Typography.Text>}
            dataSource={results}
            data-testid="batch-publish-results"
            renderItem={(result) => (
              <List.Item data-testid="batch-publish-result" data-ok={result.ok}>
                <Space wrap size={4} style={{ width: "100%", justifyContent: "space-between" }}>
                  <Typography.Text ellipsis style={{ maxWidth: 260 }}>
                    {titleOf(result)}
                  </Typography.Text>
                  <Tag color={result.ok ? "success" : "error"}>{outcomeText(t, result)}</Tag>
                </Space>
              </List.Item>
            )}
          />
        ) : (
          <Form<Values> form={form} layout="vertical" onFinish={(values) => void submit(values)}>
            <Form.Item
              name="channels"
              label={t("publish.channels")}
              rules={[{ required: true, type: "array", min: 1, message: t("publish.batch.needChannel") }]}
            >
              {channels.length === 0 && !options.isLoading ? (
                <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("publish.noChannels")} />
              ) : (
                <Checkbox.Group style={{ display: "flex", flexDirection: "column", gap: 8 }}>
                  {channels.map((channel) => {
                    const already = sent.get(channel.id) ?? 0;
                    return (
                      <Checkbox key={channel.id} value={channel.id} data-testid="batch-publish-channel">
                        <Space size={4} wrap>
                          <span>{channel.name}</span>
                          <Tag color={already > 0 ? "blue" : "default"}>
                            {already > 0
                              ? t("publish.batch.already", { count: already, total: stories.length })
                              : t("publish.batch.none")}
                          </Tag>
                        </Space>
                      </Checkbox>
                    );
                  })}
                </Checkbox.Group>
              )}
            </Form.Item>
            <Form.Item name="publishAt" label={t("publish.at")} extra={t("publish.atHelp")}>
              <DatePicker
                showTime={{ format: "HH:mm" }}
                format="YYYY-MM-DD HH:mm"
                disabledDate={(day) => day.isBefore(dayjs(), "day")}
              />
            </Form.Item>
            <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
              {t("publish.monitorHint")}
            </Typography.Paragraph>
          </Form>
        )}
      </div>
    </Modal>
  );
}
