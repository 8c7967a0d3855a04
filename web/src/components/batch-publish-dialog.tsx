import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Form, List, Modal, Space, Tag, Typography } from "antd";
import dayjs, { type Dayjs } from "dayjs";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import {
  type BatchPublishResult,
  deliveryKeys,
  fetchDeliveredCounts,
  publishSelection,
  type StoryRef,
} from "../api/publishing";
import { storyKeys } from "../api/stories";
import { useFeedback } from "./feedback";
import { PublishChannelsField, PublishMonitorHint, PublishTimeField } from "./publish-fields";

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
      // The results and their close button at once; the lists reload behind them.
      void queryClient.invalidateQueries({ queryKey: storyKeys.all });
      void queryClient.invalidateQueries({ queryKey: deliveryKeys.all });
    } catch {
      // The API client reported it.
    } finally {
      setSending(false);
    }
  };

  const titleOf = (result: BatchPublishResult) =>
    result.title ?? stories.find((story) => story.storyId === result.storyId)?.title ?? result.storyId;
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
            <PublishChannelsField
              required={t("publish.batch.needChannel")}
              itemTestId="batch-publish-channel"
              status={(channel) => {
                const already = sent.get(channel.id) ?? 0;
                return (
                  <Tag color={already > 0 ? "blue" : "default"}>
                    {already > 0
                      ? t("publish.batch.already", { count: already, total: stories.length })
                      : t("publish.batch.none")}
                  </Tag>
                );
              }}
            />
            <PublishTimeField name="publishAt" label={t("publish.at")} help={t("publish.atHelp")} />
            <PublishMonitorHint />
          </Form>
        )}
      </div>
    </Modal>
  );
}
