import "@uppy/core/dist/style.min.css";
import "@uppy/dashboard/dist/style.min.css";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Uppy, { type UppyFile } from "@uppy/core";
import GoldenRetriever from "@uppy/golden-retriever";
import uppyEnUS from "@uppy/locales/lib/en_US.js";
import uppyZhCN from "@uppy/locales/lib/zh_CN.js";
// The package index pulls in every optional peer (drag-drop, webcam…); only the Dashboard is used.
import Dashboard from "@uppy/react/lib/Dashboard.js";
import Tus from "@uppy/tus";
import {
  Alert,
  Button,
  Card,
  Col,
  Collapse,
  Form,
  Input,
  Progress,
  Row,
  Select,
  Space,
  Tag,
  TreeSelect,
  Typography,
} from "antd";
import dayjs from "dayjs";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { formProperties } from "../../api/catalogue";
import { bearerToken, getJson } from "../../api/http";
import {
  commitStories,
  type FolderNode,
  fetchFolders,
  fetchLibraries,
  fetchStory,
  fetchTranscodeTask,
  type Story,
} from "../../api/stories";
import { useFeedback } from "../feedback";
import { StoryThumbnail } from "../story-media";
import { BatchForm, PropertyItem } from "./batch-form";
import { editStory } from "./upload-api";
import {
  ACCEPTED,
  type BatchValues,
  CHUNK_SIZE,
  encodeUploadMetadata,
  fieldsFromProperties,
  formatBytes,
  isSettled,
  METADATA_LIST_KEYS,
  METADATA_TEXT_KEYS,
  type PropertyField,
  parseUploadResult,
  prefillFromStory,
  processingView,
  propertyValues,
  STATE_COLOR,
  TUS_ENDPOINT,
  type UploadResult,
  type UploadType,
  viewerLink,
} from "./upload-logic";

type Meta = Record<string, string>;
type Body = { xhr?: XMLHttpRequest };

/** Every metadata key the sink reads, so a cleared field is sent empty (the sink ignores empty values). */
const META_KEYS = ["libraryId", "folderId", ...METADATA_TEXT_KEYS, ...METADATA_LIST_KEYS];

export interface UploadedRow extends UploadResult {
  fileId: string;
  name: string;
  size: number;
}

interface DefaultLibrary {
  libraryId: string;
  folderId: string | null;
}

function folderTree(nodes: FolderNode[]): { value: string; title: string; children: ReturnType<typeof folderTree> }[] {
  return nodes.map((node) => ({ value: node.id, title: node.name, children: folderTree(node.children ?? []) }));
}

/** The server's size limit, from the tus discovery answer (public OPTIONS). */
async function fetchMaxSize(): Promise<number | null> {
  const response = await fetch(TUS_ENDPOINT, { method: "OPTIONS", headers: { "Tus-Resumable": "1.0.0" } });
  const value = Number(response.headers.get("Tus-Max-Size"));
  return Number.isFinite(value) && value > 0 ? value : null;
}

/** The transcode percent of a video or audio story while its processing job runs (the job's progress). */
function TranscodeProgress({ row, type }: { row: UploadedRow; type: UploadType }) {
  const { t } = useTranslation();
  const task = useQuery({
    queryKey: ["upload", "transcode", row.libraryId, row.storyId],
    queryFn: () => fetchTranscodeTask(row.libraryId, row.storyId, type),
    refetchInterval: 1500,
  });
  const percent = task.data?.state === "running" ? task.data.progress : 0;
  return (
    <div data-testid="upload-transcode" data-percent={percent} style={{ maxWidth: 320 }}>
      <Typography.Text type="secondary">{t("upload.transcode", { percent })}</Typography.Text>
      <Progress percent={percent} size="small" status="active" />
    </div>
  );
}

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

/** One uploaded file: its story's processing state live, duplicates, and its own values. */
function UploadedStoryRow({
  row,
  type,
  fields,
  onStory,
  onProperties,
}: {
  row: UploadedRow;
  type: UploadType;
  fields: PropertyField[];
  onStory: (fileId: string, story: Story) => void;
  onProperties: (fileId: string, values: Record<string, unknown>) => void;
}) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const story = useQuery({
    queryKey: ["upload", "story", row.libraryId, row.storyId],
    queryFn: () => fetchStory(row.libraryId, row.storyId, { silent: true }),
    refetchInterval: (query) => (isSettled(query.state.data) ? false : 1500),
  });
  const [values, setValues] = useState<{ title: string; caption: string; keywords: string[] } | null>(null);
  const [dirty, setDirty] = useState(false);
  const settled = isSettled(story.data);
  useEffect(() => {
    if (story.data) onStory(row.fileId, story.data);
    // Extracted metadata pre-fills the row once processing is over, unless the user has typed already.
    if (story.data && settled && !dirty) setValues(prefillFromStory(story.data));
  }, [story.data, settled, dirty, onStory, row.fileId]);
  const save = useMutation({
    mutationFn: () => editStory(type, row, values ?? {}),
    onSuccess: () => {
      setDirty(false);
      message.success(t("upload.file.saved"));
      void story.refetch();
    },
  });
  const view = processingView(story.data);
  const edit = (patch: Partial<{ title: string; caption: string; keywords: string[] }>) => {
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
            <TranscodeProgress row={row} type={type} />
          ) : null}
          {story.data?.status === "draft" ? (
            <OwnProperties
              fileId={row.fileId}
              fields={fields}
              onChange={(values) => onProperties(row.fileId, values)}
            />
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
            <Space direction="vertical" style={{ width: "100%", marginTop: 4 }} size={4}>
              <Input
                value={values.title}
                placeholder={t("upload.field.title")}
                aria-label={t("upload.field.title")}
                onChange={(event) => edit({ title: event.target.value })}
              />
              <Input.TextArea
                rows={2}
                value={values.caption}
                placeholder={t("upload.field.caption")}
                aria-label={t("upload.field.caption")}
                onChange={(event) => edit({ caption: event.target.value })}
              />
              <Select
                mode="tags"
                style={{ width: "100%" }}
                value={values.keywords}
                placeholder={t("upload.field.keywords")}
                onChange={(keywords: string[]) => edit({ keywords })}
              />
              <Button size="small" disabled={!dirty} loading={save.isPending} onClick={() => save.mutate()}>
                {t("upload.file.save")}
              </Button>
            </Space>
          ) : null}
        </Col>
      </Row>
    </Card>
  );
}

/** The upload page of one story type: target, batch form, Uppy over tus, then the stories and commit. */
export function Uploader({
  type,
  onCommitted,
}: {
  type: UploadType;
  /** Told the rows of each successful commit (the embeddable upload page sends them to its opener). */
  onCommitted?: (rows: UploadedRow[]) => void;
}) {
  const { t, i18n } = useTranslation();
  const { message } = useFeedback();
  const [form] = Form.useForm();
  // Uppy's own strings (buttons, status bar) come from its locale pack for the page's language.
  const uppyLocale = i18n.language === "en-US" ? uppyEnUS : uppyZhCN;
  const queryClient = useQueryClient();
  const [target, setTarget] = useState<{ libraryId?: string; folderId?: string }>({});
  const [rows, setRows] = useState<UploadedRow[]>([]);
  const [committed, setCommitted] = useState<UploadedRow[]>([]);
  const stories = useRef(new Map<string, Story>());

  const defaults = useQuery({
    queryKey: ["default-library"],
    queryFn: () => getJson<DefaultLibrary>("/api/v1/default-library"),
    staleTime: 60_000,
  });
  const libraries = useQuery({ queryKey: ["libraries"], queryFn: fetchLibraries, staleTime: 60_000 });
  useEffect(() => {
    if (defaults.data && !target.libraryId) {
      setTarget({ libraryId: defaults.data.libraryId, folderId: defaults.data.folderId ?? undefined });
    }
  }, [defaults.data, target.libraryId]);
  const folders = useQuery({
    queryKey: ["folders", target.libraryId],
    queryFn: () => fetchFolders(target.libraryId as string),
    enabled: Boolean(target.libraryId),
  });
  const properties = useQuery({
    queryKey: ["upload", "properties", type, target.libraryId],
    queryFn: () => formProperties({ storytype: type, libraryId: target.libraryId }),
    enabled: Boolean(target.libraryId),
  });
  const fields = useMemo(() => fieldsFromProperties(properties.data ?? []), [properties.data]);
  const maxSize = useQuery({ queryKey: ["upload", "max-size"], queryFn: fetchMaxSize, staleTime: Infinity });

  const uppy = useMemo(
    () =>
      new Uppy<Meta, Body>({
        id: `dams-upload-${type}`,
        autoProceed: false,
        restrictions: { allowedFileTypes: ACCEPTED[type] },
      })
        .use(Tus, {
          endpoint: TUS_ENDPOINT,
          chunkSize: CHUNK_SIZE,
          retryDelays: [0, 1000, 3000, 5000, 10_000],
          storeFingerprintForResuming: true,
          removeFingerprintOnSuccess: true,
          limit: 3,
          // relativePath: a file's place in a dropped or chosen folder ("" for a single file); the server ignores it.
          allowedMetaFields: ["name", "type", "relativePath", ...META_KEYS],
          // The bearer token of the session, refreshed when it expires, on every request (POST, HEAD, PATCH).
          async onBeforeRequest(request) {
            const token = await bearerToken();
            if (token) request.setHeader("Authorization", `Bearer ${token}`);
          },
        })
        // After a reload the batch comes back (files kept in IndexedDB) and tus resumes each from its stored fingerprint.
        .use(GoldenRetriever, { serviceWorker: false }),
    [type],
  );
  // Destroyed when the page goes away; StrictMode's unmount-and-remount in development keeps it.
  const mounted = useRef<Uppy<Meta, Body> | null>(null);
  useEffect(() => {
    mounted.current = uppy;
    return () => {
      mounted.current = null;
      setTimeout(() => {
        if (mounted.current !== uppy) uppy.destroy();
      }, 0);
    };
  }, [uppy]);
  useEffect(() => {
    // Golden Retriever writes the batch's state at most every 500 ms; a reload within that time would
    // lose the files just added (or the upload URL tus just got). Its pending write is made as the page goes.
    const retriever = uppy.getPlugin("GoldenRetriever") as unknown as
      | { saveFilesStateToLocalStorage?: { flush?: () => void } }
      | undefined;
    const flush = () => retriever?.saveFilesStateToLocalStorage?.flush?.();
    window.addEventListener("pagehide", flush);
    return () => window.removeEventListener("pagehide", flush);
  }, [uppy]);
  useEffect(() => uppy.setOptions({ locale: uppyLocale }), [uppy, uppyLocale]);
  useEffect(() => {
    if (maxSize.data)
      uppy.setOptions({ restrictions: { allowedFileTypes: ACCEPTED[type], maxFileSize: maxSize.data } });
  }, [uppy, maxSize.data, type]);

  const applyMeta = useCallback(() => {
    const values = form.getFieldsValue() as BatchValues;
    const meta = encodeUploadMetadata({ ...values, libraryId: target.libraryId, folderId: target.folderId });
    uppy.setMeta({ ...Object.fromEntries(META_KEYS.map((key) => [key, ""])), ...meta });
  }, [form, target, uppy]);
  useEffect(() => applyMeta(), [applyMeta]);

  useEffect(() => {
    const onSuccess = (file: UppyFile<Meta, Body> | undefined, response: { body?: Body }) => {
      if (!file) return;
      const result = parseUploadResult(response.body?.xhr?.responseText);
      if (!result) return;
      setRows((current) => [
        ...current.filter((row) => row.fileId !== file.id),
        { ...result, fileId: file.id, name: file.name ?? "", size: file.size ?? 0 },
      ]);
    };
    // Uppy gives files that came without a folder a null relativePath, which tus would send as "null".
    const onAdded = (file: UppyFile<Meta, Body>) => {
      if (typeof file.meta.relativePath !== "string") uppy.setFileMeta(file.id, { relativePath: "" });
      applyMeta();
    };
    uppy.on("upload-success", onSuccess);
    uppy.on("file-added", onAdded);
    return () => {
      uppy.off("upload-success", onSuccess);
      uppy.off("file-added", onAdded);
    };
  }, [uppy, applyMeta]);

  const onStory = useCallback((fileId: string, story: Story) => stories.current.set(fileId, story), []);
  // Each file's own custom properties (raw form values), over the batch's on commit.
  const ownProperties = useRef(new Map<string, Record<string, unknown>>());
  const onProperties = useCallback(
    (fileId: string, values: Record<string, unknown>) => ownProperties.current.set(fileId, values),
    [],
  );
  const pending = rows.filter((row) => !committed.some((done) => done.storyId === row.storyId));

  const commit = useMutation({
    mutationFn: async () => {
      await form.validateFields();
      // Custom properties are not Upload-Metadata: the commit carries the batch's and each file's own.
      const batch = propertyValues(fields, (form.getFieldValue("properties") ?? {}) as Record<string, unknown>);
      const byLibrary = new Map<string, UploadedRow[]>();
      for (const row of pending) byLibrary.set(row.libraryId, [...(byLibrary.get(row.libraryId) ?? []), row]);
      for (const [libraryId, group] of byLibrary) {
        const own: Record<string, Record<string, unknown>> = {};
        for (const row of group) {
          const values = propertyValues(fields, ownProperties.current.get(row.fileId) ?? {});
          if (Object.keys(values).length > 0) own[row.storyId] = values;
        }
        await commitStories(
          type,
          libraryId,
          group.map((row) => row.storyId),
          { metadata: { properties: batch }, ...(Object.keys(own).length > 0 ? { properties: own } : {}) },
        );
      }
      return pending;
    },
    onSuccess: (done) => {
      setCommitted((current) => [...current, ...done]);
      onCommitted?.(done);
      void queryClient.invalidateQueries({ queryKey: ["upload", "story"] });
      message.success(t("upload.commit.done", { count: done.length }));
    },
  });

  const writable = (libraries.data ?? []).filter((library) => library.level !== "read");
  const accepted = ACCEPTED[type].join(" ");
  return (
    <div data-testid={`upload-page-${type}`}>
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={15}>
          <Card size="small" style={{ marginBottom: 16 }}>
            <Space wrap>
              <span>{t("upload.target.library")}</span>
              <Select
                style={{ minWidth: 180 }}
                value={target.libraryId}
                loading={libraries.isLoading}
                options={writable.map((library) => ({ value: library.id, label: library.name }))}
                onChange={(libraryId: string) => setTarget({ libraryId })}
                data-testid="upload-library"
              />
              <span>{t("upload.target.folder")}</span>
              <TreeSelect
                style={{ minWidth: 180 }}
                allowClear
                placeholder={t("upload.target.folder.root")}
                value={target.folderId}
                treeData={folderTree(folders.data ?? [])}
                onChange={(folderId?: string) => setTarget((current) => ({ ...current, folderId }))}
              />
            </Space>
            <Typography.Paragraph type="secondary" style={{ margin: "8px 0 0" }} data-testid="upload-limits">
              {t("upload.limits", {
                types: accepted,
                size: maxSize.data ? formatBytes(maxSize.data) : t("upload.limits.unknown"),
              })}
            </Typography.Paragraph>
          </Card>
          <Dashboard
            uppy={uppy}
            width="100%"
            height={420}
            proudlyDisplayPoweredByUppy={false}
            showProgressDetails
            fileManagerSelectionType="both"
            note={t("upload.note", { types: accepted })}
            locale={{
              strings: {
                dropPasteFiles: t("upload.dashboard.drop"),
                dropPasteFolders: t("upload.dashboard.dropFolders"),
                dropPasteBoth: t("upload.dashboard.dropBoth"),
                browseFiles: t("upload.dashboard.browseFiles"),
                browseFolders: t("upload.dashboard.browseFolders"),
                sessionRestored: t("upload.dashboard.sessionRestored"),
                recoveredAllFiles: t("upload.dashboard.recoveredAllFiles"),
                recoveredXFiles: {
                  0: t("upload.dashboard.recoveredXFiles"),
                  1: t("upload.dashboard.recoveredXFiles"),
                },
                reSelect: t("upload.dashboard.reSelect"),
              },
            }}
          />
        </Col>
        <Col xs={24} lg={9}>
          <Card size="small" title={t("upload.form.title")} extra={t("upload.form.batch")}>
            <BatchForm form={form} fields={fields} onChange={applyMeta} />
          </Card>
        </Col>
      </Row>
      {rows.length > 0 ? (
        <Card
          size="small"
          style={{ marginTop: 16 }}
          title={t("upload.stories.title", { count: rows.length })}
          extra={
            <Button
              type="primary"
              data-testid="upload-commit"
              disabled={pending.length === 0}
              loading={commit.isPending}
              onClick={() => commit.mutate()}
            >
              {t("upload.commit", { count: pending.length })}
            </Button>
          }
        >
          {committed.length > 0 ? (
            <Alert
              type="success"
              showIcon
              style={{ marginBottom: 12 }}
              data-testid="upload-committed"
              message={t("upload.commit.done", { count: committed.length })}
              description={
                <Space wrap size={[8, 0]}>
                  {committed.map((row) => (
                    <a key={row.storyId} href={viewerLink(row)}>
                      {row.name}
                    </a>
                  ))}
                </Space>
              }
            />
          ) : null}
          <div style={{ display: "flex", flexDirection: "column", gap: 8 }}>
            {rows.map((row) => (
              <UploadedStoryRow
                key={row.fileId}
                row={row}
                type={type}
                fields={fields}
                onStory={onStory}
                onProperties={onProperties}
              />
            ))}
          </div>
        </Card>
      ) : null}
    </div>
  );
}
