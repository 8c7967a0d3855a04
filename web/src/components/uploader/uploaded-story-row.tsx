import { useMutation } from "@tanstack/react-query";
import { Alert, Button, Card, Col, Collapse, Form, Input, Row, Select, Space, Tag, Typography } from "antd";
import dayjs from "dayjs";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { editStory } from "../../api/stories";
import { useStory } from "../../api/story-detail";
import { useFeedback } from "../feedback";
import { StoryThumbnail } from "../story-media";
import { PropertyItem } from "./batch-form";
import {
  formatBytes,
  isSettled,
  type PropertyField,
  prefillFromStory,
  processingView,
  STATE_COLOR,
  type UploadType,
  viewerLink,
} from "./upload-logic";
import { TranscodeProgress } from "./upload-progress";
import type { UploadedFile } from "./use-uppy";

/** While a story is processed, the row asks for it this often. */
const STORY_POLL_MS = 1500;

type RowValues = { title: string; caption: string; keywords: string[] };

/** A file's own custom properties: what it leaves empty comes from the batch. */
function OwnProperties({
  fileId,
  fields,
  onChange,
}: {
  fileId: string;
  fields: PropertyField[];
  onChange: (values: Record<string, unknown>) => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm();
  if (fields.length === 0) return null;
  return (
    <Collapse
      size="small"
      style={{ marginTop: 4 }}
      items={[
        {
          key: "own",
          label: t("upload.file.properties"),
          children: (
            <Form
              form={form}
              // The name prefixes the inputs' ids, so each label points at its own file's input.
              name={`own-${fileId.replace(/[^a-zA-Z0-9_-]/g, "_")}`}
              layout="vertical"
              size="small"
              data-testid="upload-own-properties"
              onValuesChange={() => onChange((form.getFieldValue("properties") ?? {}) as Record<string, unknown>)}
            >
              <Typography.Paragraph type="secondary">{t("upload.file.properties.hint")}</Typography.Paragraph>
              {fields.map((field) => (
                <PropertyItem key={field.name} field={field} own />
              ))}
            </Form>
          ),
        },
      ]}
    />
  );
}

/** The row's own title, caption and keywords, saved to its story. */
function RowEditor({
  values,
  dirty,
  saving,
  onEdit,
  onSave,
}: {
  values: RowValues;
  dirty: boolean;
  saving: boolean;
  onEdit: (patch: Partial<RowValues>) => void;
  onSave: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Space direction="vertical" style={{ width: "100%", marginTop: 4 }} size={4}>
      <Input
        value={values.title}
        placeholder={t("upload.field.title")}
        aria-label={t("upload.field.title")}
        onChange={(event) => onEdit({ title: event.target.value })}
      />
      <Input.TextArea
        rows={2}
        value={values.caption}
        placeholder={t("upload.field.caption")}
        aria-label={t("upload.field.caption")}
        onChange={(event) => onEdit({ caption: event.target.value })}
      />
      <Select
        mode="tags"
        style={{ width: "100%" }}
        value={values.keywords}
        placeholder={t("upload.field.keywords")}
        onChange={(keywords: string[]) => onEdit({ keywords })}
      />
      <Button size="small" disabled={!dirty} loading={saving} onClick={onSave}>
        {t("upload.file.save")}
      </Button>
    </Space>
  );
}

/** One uploaded file: its story's processing state live, duplicates, and its own values. */
export function UploadedStoryRow({
  row,
  type,
  fields,
  onProperties,
}: {
  row: UploadedFile;
  type: UploadType;
  fields: PropertyField[];
  onProperties: (fileId: string, values: Record<string, unknown>) => void;
}) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const story = useStory(row, {
    call: { silent: true },
    poll: (data) => (isSettled(data) ? false : STORY_POLL_MS),
  });
  const [values, setValues] = useState<RowValues | null>(null);
  const [dirty, setDirty] = useState(false);
  const settled = isSettled(story.data);
  useEffect(() => {
    // Extracted metadata pre-fills the row once processing is over, unless the user has typed already.
    if (story.data && settled && !dirty) setValues(prefillFromStory(story.data));
  }, [story.data, settled, dirty]);
  const save = useMutation({
    mutationFn: () => editStory({ ...row, type }, values ?? {}),
    onSuccess: () => {
      setDirty(false);
      message.success(t("upload.file.saved"));
      void story.refetch();
    },
  });
  const view = processingView(story.data);
  const edit = (patch: Partial<RowValues>) => {
    setDirty(true);
    setValues((current) => ({ title: "", caption: "", keywords: [], ...current, ...patch }));
  };
  return (
    <Card size="small" data-testid="upload-row" data-story={`${row.libraryId}/${row.storyId}`} data-state={view}>
      <Row gutter={12} wrap={false}>
        <Col flex="96px">
          <div
            style={{ width: 96, height: 96 }}
            data-testid="upload-thumbnail"
            data-ready={Boolean(story.data?.thumbnailUrl)}
          >
            <StoryThumbnail src={story.data?.thumbnailMediaUrl ?? null} type={type} alt={row.name} />
          </div>
        </Col>
        <Col flex="auto" style={{ minWidth: 0, paddingLeft: 12 }}>
          <Space wrap size={4} style={{ marginBottom: 4 }}>
            <a href={viewerLink(row)} target="_blank" rel="noreferrer">
              <Typography.Text strong ellipsis style={{ maxWidth: 260 }}>
                {row.name}
              </Typography.Text>
            </a>
            <Typography.Text type="secondary">{formatBytes(row.size)}</Typography.Text>
            <Tag color={STATE_COLOR[view]} data-testid="upload-state">
              {t(`upload.state.${view}`)}
            </Tag>
            {story.data?.status === "committed" || story.data?.status === "published" ? (
              <Tag color="green">{t("upload.committed")}</Tag>
            ) : (
              <Tag>{t("upload.draft")}</Tag>
            )}
            {story.data?.capturedAt ? (
              <Typography.Text type="secondary">
                {t("upload.file.capturedAt", { time: dayjs(story.data.capturedAt).format("YYYY-MM-DD HH:mm:ss") })}
              </Typography.Text>
            ) : null}
          </Space>
          {type !== "photo" && (view === "queued" || view === "running") ? (
            <TranscodeProgress story={row} type={type} />
          ) : null}
          {story.data?.status === "draft" ? (
            <OwnProperties fileId={row.fileId} fields={fields} onChange={(own) => onProperties(row.fileId, own)} />
          ) : null}
          {view === "failed" ? (
            <Alert
              type="error"
              showIcon
              message={t("upload.state.failed.reason", { reason: story.data?.processingError ?? "" })}
            />
          ) : null}
          {row.duplicates.length > 0 ? (
            <Alert
              type="warning"
              showIcon
              data-testid="upload-duplicate"
              message={
                <Space wrap size={4}>
                  {t("upload.duplicate")}
                  {row.duplicates.map((duplicate) => (
                    <a key={duplicate.storyId} href={viewerLink(duplicate)} target="_blank" rel="noreferrer">
                      {duplicate.title || duplicate.storyId}
                    </a>
                  ))}
                </Space>
              }
            />
          ) : null}
          {values ? (
            <RowEditor
              values={values}
              dirty={dirty}
              saving={save.isPending}
              onEdit={edit}
              onSave={() => save.mutate()}
            />
          ) : null}
        </Col>
      </Row>
    </Card>
  );
}
