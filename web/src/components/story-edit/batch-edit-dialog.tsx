import { DeleteOutlined, PlusOutlined } from "@ant-design/icons";
import { useQueryClient } from "@tanstack/react-query";
import {
  Alert,
  Button,
  Checkbox,
  Descriptions,
  Form,
  Input,
  List,
  Modal,
  Progress,
  Radio,
  Select,
  Space,
  Tag,
} from "antd";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { type StoryProperty, useFormProperties, useLockedProperties } from "../../api/catalogue";
import { useMetadataTemplates } from "../../api/metadata-templates";
import { type Story, storyKeys } from "../../api/stories";
import {
  type BatchPreview,
  type BatchRequest,
  type BatchSearch,
  batchEditItems,
  getBatchEdit,
  previewBatchEdit,
  type StoryBatch,
  type StoryBatchItem,
  startBatchEdit,
} from "../../api/story-batch";
import { seededPropertyLabel } from "../../locales/seeded";
import { CatalogueSelect, KeywordSelect, PropertyInput } from "../uploader/batch-form";
import { fieldsFromProperties } from "../uploader/upload-logic";
import { type BatchRow, batchOperations, IPTC_SET_FIELDS, LIST_FIELDS, SET_FIELDS } from "./batch-edit-logic";

/** How often a running batch is asked for its progress. */
const POLL_MS = 1000;

/** The grid's search as a batch target: its filters and how many stories the grid counted. */
export interface BatchSearchTarget {
  query: BatchSearch;
  total: number;
}

/**
 * 编辑信息 for a selection — or for every story the grid's search matches
 * (resolved by the server when the preview or the batch starts): operations
 * (set a field, add or remove keywords, tags or authors, find and replace in
 * captions, a metadata template), the server's preview of what each would
 * change, then the batch — a progress bar while its job runs — and the
 * per-story result.
 */
export function BatchEditDialog({
  stories,
  search,
  onClose,
}: {
  stories: readonly Story[];
  search?: BatchSearchTarget;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [target, setTarget] = useState<"selection" | "search">(stories.length > 0 || !search ? "selection" : "search");
  const bySearch = target === "search" && search !== undefined;
  const queryClient = useQueryClient();
  const [form] = Form.useForm<{ operations: BatchRow[] }>();
  const [preview, setPreview] = useState<BatchPreview | null>(null);
  const [batch, setBatch] = useState<StoryBatch | null>(null);
  const [refused, setRefused] = useState<StoryBatchItem[]>([]);
  const [busy, setBusy] = useState(false);
  const storyIds = useMemo(() => stories.map((story) => story.storyId), [stories]);
  // Custom properties are offered when the selection (or the search) is of one media type (its library's and every library's).
  const first = stories[0];
  const searchTypes = search?.query.types ?? [];
  const mediaType = bySearch
    ? searchTypes.length === 1 && searchTypes[0] !== "composite"
      ? (searchTypes[0] as StoryProperty["storyType"])
      : undefined
    : first && first.type !== "composite" && stories.every((story) => story.type === first.type)
      ? (first.type as StoryProperty["storyType"])
      : undefined;
  const definitions = useFormProperties(mediaType ?? "photo", bySearch ? search.query.libraryId : first?.libraryId, {
    enabled: mediaType !== undefined,
    staleTime: 60_000,
  });
  const properties = useMemo(
    () =>
      fieldsFromProperties(
        (definitions.data ?? []).map((property) => ({ ...property, label: seededPropertyLabel(property, t) })),
      ),
    [definitions.data, t],
  );
  const finished = batch !== null && (batch.state === "succeeded" || batch.state === "failed");

  // A batch run as a job: its progress until it ends, then the stories it refused.
  useEffect(() => {
    if (!batch || finished) return;
    const timer = setTimeout(async () => setBatch(await getBatchEdit(batch.id)), POLL_MS);
    return () => clearTimeout(timer);
  }, [batch, finished]);
  useEffect(() => {
    if (!batch || !finished) return;
    void queryClient.invalidateQueries({ queryKey: storyKeys.all });
    if (batch.refused + batch.failed === 0) return;
    const outcomes = (["refused", "failed"] as const).filter((outcome) => batch[outcome] > 0);
    void Promise.all(outcomes.map((outcome) => batchEditItems(batch.id, { outcome }))).then((pages) =>
      setRefused(pages.flatMap((page) => page.content)),
    );
  }, [batch, finished, queryClient]);

  const request = async (): Promise<BatchRequest> => {
    const operations = batchOperations((await form.validateFields()).operations ?? [], properties);
    return bySearch ? { search: search.query, operations } : { storyIds, operations };
  };
  const runPreview = async () => {
    setBusy(true);
    try {
      setPreview(await previewBatchEdit(await request()));
    } finally {
      setBusy(false);
    }
  };
  const apply = async () => {
    setBusy(true);
    try {
      setBatch(await startBatchEdit(await request()));
    } finally {
      setBusy(false);
    }
  };

  const reason = (code: string | null) => t(`batchEdit.reason.${code ?? "failed"}`, { defaultValue: code ?? "" });

  return (
    <Modal
      open
      title={t("batchEdit.title", { count: bySearch ? (preview?.total ?? search.total) : stories.length })}
      width="min(760px, calc(100vw - 16px))"
      onCancel={onClose}
      destroyOnHidden
      maskClosable={false}
      data-testid="batch-edit-dialog"
      footer={
        batch
          ? [
              <Button key="close" type="primary" disabled={!finished} onClick={onClose} data-testid="batch-edit-close">
                {t("batchEdit.close")}
              </Button>,
            ]
          : [
              <Button key="cancel" onClick={onClose}>
                {t("crud.cancel")}
              </Button>,
              <Button key="preview" loading={busy} onClick={runPreview} data-testid="batch-edit-preview">
                {t("batchEdit.preview")}
              </Button>,
              <Button
                key="apply"
                type="primary"
                loading={busy}
                disabled={!preview || preview.changed === 0}
                onClick={apply}
                data-testid="batch-edit-apply"
              >
                {t("batchEdit.apply", { count: preview?.changed ?? 0 })}
              </Button>,
            ]
      }
    >
      {batch ? (
        <BatchResult batch={batch} refused={refused} reason={reason} />
      ) : (
        <>
          {search ? (
            <Radio.Group
              value={target}
              onChange={(event) => {
                setTarget(event.target.value);
                setPreview(null);
              }}
              style={{ marginBottom: 16 }}
              data-testid="batch-edit-target"
            >
              <Space direction="vertical">
                <Radio value="selection" disabled={stories.length === 0}>
                  {t("batchEdit.target.selection", { count: stories.length })}
                </Radio>
                <Radio value="search" data-testid="batch-edit-target-search">
                  {t("batchEdit.target.search", { count: search.total })}
                </Radio>
              </Space>
            </Radio.Group>
          ) : null}
          <Form
            form={form}
            layout="vertical"
            initialValues={{ operations: [{ kind: "add", field: "keywords" }] }}
            onValuesChange={() => setPreview(null)}
            data-testid="batch-edit-form"
          >
            <Form.List name="operations">
              {(rows, { add, remove }) => (
                <Space direction="vertical" style={{ width: "100%" }}>
                  {rows.map((row, index) => (
                    <div
                      key={row.key}
                      data-testid={`batch-edit-operation-${index}`}
                      style={{ border: "1px solid #f0f0f0", borderRadius: 8, padding: "8px 12px" }}
                    >
                      <OperationRow
                        name={row.name}
                        properties={properties}
                        touches={preview?.operations[index]?.touches}
                        onRemove={rows.length > 1 ? () => remove(row.name) : undefined}
                      />
                    </div>
                  ))}
                  <Button
                    icon={<PlusOutlined />}
                    onClick={() => add({ kind: "set", field: "caption" })}
                    disabled={rows.length >= 20}
                    data-testid="batch-edit-add-operation"
                  >
                    {t("batchEdit.addOperation")}
                  </Button>
                </Space>
              )}
            </Form.List>
          </Form>
          {preview ? (
            <Alert
              style={{ marginTop: 16 }}
              type={preview.changed > 0 ? "info" : "warning"}
              showIcon
              data-testid="batch-edit-preview-result"
              message={
                (bySearch ? `${t("batchEdit.previewMatched", { total: preview.total })} ` : "") +
                t("batchEdit.previewSummary", {
                  changed: preview.changed,
                  unchanged: preview.unchanged,
                  refused: preview.refused,
                })
              }
              description={
                preview.refusedReasons.length > 0 ? (
                  <Space wrap>
                    {preview.refusedReasons.map((entry) => (
                      <Tag key={entry.reason} color="orange">
                        {reason(entry.reason)} × {entry.count}
                      </Tag>
                    ))}
                  </Space>
                ) : null
              }
            />
          ) : null}
        </>
      )}
    </Modal>
  );
}

/** The job's progress, then its counts and the stories it refused. */
function BatchResult({
  batch,
  refused,
  reason,
}: {
  batch: StoryBatch;
  refused: StoryBatchItem[];
  reason: (code: string | null) => string;
}) {
  const { t } = useTranslation();
  const finished = batch.state === "succeeded" || batch.state === "failed";
  return (
    <Space direction="vertical" style={{ width: "100%" }} data-testid="batch-edit-result">
      <Progress
        percent={batch.progress}
        status={batch.state === "failed" ? "exception" : finished ? "success" : "active"}
        data-testid="batch-edit-progress"
      />
      {finished ? null : <span>{t("batchEdit.running", { done: batch.done, total: batch.total })}</span>}
      {batch.error ? <Alert type="error" showIcon message={batch.error} /> : null}
      {finished ? (
        <Descriptions size="small" column={{ xs: 1, sm: 2 }} bordered data-testid="batch-edit-summary">
          <Descriptions.Item label={t("batchEdit.outcome.changed")}>{batch.changed}</Descriptions.Item>
          <Descriptions.Item label={t("batchEdit.outcome.unchanged")}>{batch.unchanged}</Descriptions.Item>
          <Descriptions.Item label={t("batchEdit.outcome.refused")}>{batch.refused}</Descriptions.Item>
          <Descriptions.Item label={t("batchEdit.outcome.failed")}>{batch.failed}</Descriptions.Item>
        </Descriptions>
      ) : null}
      {refused.length > 0 ? (
        <List
          size="small"
          header={t("batchEdit.refusedList")}
          dataSource={refused}
          data-testid="batch-edit-refused"
          renderItem={(item) => (
            <List.Item>
              <span style={{ overflowWrap: "anywhere" }}>{item.title || item.storyId}</span>
              <Tag color={item.outcome === "failed" ? "red" : "orange"}>{reason(item.reason)}</Tag>
            </List.Item>
          )}
        />
      ) : null}
    </Space>
  );
}

/** One operation: what it does, on which field, with which values; the preview's count beside it. */
function OperationRow({
  name,
  properties,
  touches,
  onRemove,
}: {
  name: number;
  properties: ReturnType<typeof fieldsFromProperties>;
  touches: number | undefined;
  onRemove?: () => void;
}) {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  const kind = Form.useWatch(["operations", name, "kind"], form) as BatchRow["kind"] | undefined;
  const field = Form.useWatch(["operations", name, "field"], form) as string | undefined;
  const templates = useMetadataTemplates();
  // The IPTC texts (kept in properties) the role may not edit are offered disabled: the server refuses them.
  const locked = useLockedProperties().data;
  const property = field?.startsWith("properties.")
    ? properties.find((entry) => `properties.${entry.name}` === field)
    : undefined;
  const kinds = ["add", "remove", "set", "replace", "template"] as const;
  const setOptions = [
    ...SET_FIELDS.map((key) => ({
      value: key,
      label: t(`editInfo.field.${key}`),
      disabled: IPTC_SET_FIELDS.has(key) && locked?.has(key) === true,
    })),
    ...properties.map((entry) => ({
      value: `properties.${entry.name}`,
      label: entry.label,
      disabled: entry.editable === false,
    })),
  ];
  const required = [{ required: true, message: t("batchEdit.required") }];
  return (
    <Space wrap align="start" style={{ width: "100%" }}>
      <Form.Item name={[name, "kind"]} label={t("batchEdit.operation")} style={{ marginBottom: 8 }}>
        <Select
          style={{ width: 150 }}
          data-testid="batch-edit-kind"
          options={kinds.map((value) => ({ value, label: t(`batchEdit.kind.${value}`) }))}
          onChange={(value: BatchRow["kind"]) =>
            form.setFieldValue(
              ["operations", name],
              value === "add" || value === "remove" ? { kind: value, field: "keywords" } : { kind: value },
            )
          }
        />
      </Form.Item>
      {kind === "add" || kind === "remove" ? (
        <>
          <Form.Item name={[name, "field"]} label={t("batchEdit.field")} style={{ marginBottom: 8 }}>
            <Select
              style={{ width: 120 }}
              options={LIST_FIELDS.map((value) => ({ value, label: t(`editInfo.field.${value}`) }))}
            />
          </Form.Item>
          <Form.Item
            name={[name, "values"]}
            label={t("batchEdit.values")}
            rules={required}
            style={{ marginBottom: 8, minWidth: 220, flex: 1 }}
          >
            {field === "keywords" ? (
              <KeywordSelect />
            ) : (
              <CatalogueSelect kind={field === "tags" ? "tags" : "authors"} multiple />
            )}
          </Form.Item>
        </>
      ) : null}
      {kind === "set" ? (
        <>
          <Form.Item name={[name, "field"]} label={t("batchEdit.field")} rules={required} style={{ marginBottom: 8 }}>
            <Select
              style={{ width: 160 }}
              options={setOptions}
              showSearch
              optionFilterProp="label"
              data-testid="batch-edit-field"
            />
          </Form.Item>
          <Form.Item
            name={[name, "value"]}
            label={t("batchEdit.value")}
            style={{ marginBottom: 8, minWidth: 220, flex: 1 }}
            valuePropName={property?.kind === "switch" ? "checked" : "value"}
          >
            {property ? <PropertyInput field={property} /> : <Input data-testid="batch-edit-value" />}
          </Form.Item>
        </>
      ) : null}
      {kind === "replace" ? (
        <>
          <Form.Item name={[name, "find"]} label={t("batchEdit.find")} rules={required} style={{ marginBottom: 8 }}>
            <Input data-testid="batch-edit-find" />
          </Form.Item>
          <Form.Item name={[name, "replace"]} label={t("batchEdit.replaceWith")} style={{ marginBottom: 8 }}>
            <Input data-testid="batch-edit-replace" />
          </Form.Item>
          <Form.Item name={[name, "matchCase"]} valuePropName="checked" label=" " style={{ marginBottom: 8 }}>
            <Checkbox>{t("batchEdit.matchCase")}</Checkbox>
          </Form.Item>
        </>
      ) : null}
      {kind === "template" ? (
        <Form.Item
          name={[name, "templateId"]}
          label={t("batchEdit.template")}
          rules={required}
          style={{ marginBottom: 8, minWidth: 220 }}
        >
          <Select
            loading={templates.isLoading}
            options={(templates.data ?? []).map((template) => ({ value: template.id, label: template.name }))}
          />
        </Form.Item>
      ) : null}
      <Space style={{ paddingTop: 30 }}>
        {touches !== undefined ? (
          <Tag color="blue" data-testid="batch-edit-touches">
            {t("batchEdit.touches", { count: touches })}
          </Tag>
        ) : null}
        {onRemove ? (
          <Button
            type="text"
            icon={<DeleteOutlined />}
            aria-label={t("batchEdit.removeOperation")}
            onClick={onRemove}
          />
        ) : null}
      </Space>
    </Space>
  );
}
