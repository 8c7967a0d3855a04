import "@uppy/core/dist/style.min.css";
import "@uppy/dashboard/dist/style.min.css";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
// The package index pulls in every optional peer (drag-drop, webcam…); only the Dashboard is used.
import Dashboard from "@uppy/react/lib/Dashboard.js";
import { Alert, Button, Card, Col, Form, Row, Select, Space, TreeSelect, Typography } from "antd";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { catalogueKeys, recordKeywordHistory, useFormProperties } from "../../api/catalogue";
import { folderOptions, useFolders } from "../../api/folders";
import { isWritable, useLibraries } from "../../api/libraries";
import { storyKeys } from "../../api/stories";
import { commitStories, fetchCreateForm, uploadKeys, uploadLimitsQuery } from "../../api/uploads";
import { seededPropertyLabel } from "../../locales/seeded";
import { useFeedback } from "../feedback";
import { BatchForm } from "./batch-form";
import { TemplatePicker } from "./template-picker";
import {
  ACCEPTED,
  type BatchValues,
  batchChanges,
  commitRequests,
  encodeUploadMetadata,
  fieldsFromProperties,
  formatBytes,
  type UploadType,
  viewerLink,
} from "./upload-logic";
import { UploadedStoryRow } from "./uploaded-story-row";
import { type UploadedFile, useUppy } from "./use-uppy";

export type UploadedRow = UploadedFile;

interface Target {
  libraryId?: string;
  folderId?: string;
}

/** Where the batch goes: a library the user may write and a folder of it, and what the server accepts. */
function UploadTarget({
  target,
  onChange,
  accepted,
  maxSize,
}: {
  target: Target;
  onChange: (target: Target) => void;
  accepted: string;
  maxSize: number | null | undefined;
}) {
  const { t } = useTranslation();
  const libraries = useLibraries();
  const folders = useFolders(target.libraryId);
  const writable = (libraries.data ?? []).filter(isWritable);
  return (
    <Card size="small" style={{ marginBottom: 16 }}>
      <Space wrap>
        <span>{t("upload.target.library")}</span>
        <Select
          style={{ minWidth: 180 }}
          value={target.libraryId}
          loading={libraries.isLoading}
          options={writable.map((library) => ({ value: library.id, label: library.name }))}
          onChange={(libraryId: string) => onChange({ libraryId })}
          data-testid="upload-library"
        />
        <span>{t("upload.target.folder")}</span>
        <TreeSelect
          style={{ minWidth: 180 }}
          allowClear
          placeholder={t("upload.target.folder.root")}
          value={target.folderId}
          treeData={folderOptions(folders.data ?? [])}
          onChange={(folderId?: string) => onChange({ ...target, folderId })}
        />
      </Space>
      <Typography.Paragraph type="secondary" style={{ margin: "8px 0 0" }} data-testid="upload-limits">
        {t("upload.limits", {
          types: accepted,
          size: maxSize ? formatBytes(maxSize) : t("upload.limits.unknown"),
        })}
      </Typography.Paragraph>
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
  const { t } = useTranslation();
  const { message } = useFeedback();
  const [form] = Form.useForm();
  const queryClient = useQueryClient();
  const [target, setTarget] = useState<Target>({});
  const [rows, setRows] = useState<UploadedRow[]>([]);
  const [committed, setCommitted] = useState<UploadedRow[]>([]);

  // The server's defaults for the type: the user's default library, a video to 素材库 (issue 15: it went to 成品库).
  const defaults = useQuery({ queryKey: uploadKeys.createForm(type), queryFn: () => fetchCreateForm(type) });
  useEffect(() => {
    if (defaults.data && !target.libraryId) {
      setTarget({ libraryId: defaults.data.libraryId, folderId: defaults.data.folderId ?? undefined });
    }
  }, [defaults.data, target.libraryId]);
  const properties = useFormProperties(type, target.libraryId, { enabled: Boolean(target.libraryId) });
  const fields = useMemo(
    () =>
      fieldsFromProperties(
        (properties.data ?? []).map((property) => ({ ...property, label: seededPropertyLabel(property, t) })),
      ),
    [properties.data, t],
  );
  const limits = useQuery(uploadLimitsQuery());
  const maxSize = limits.data?.maxSize;

  const readMeta = useCallback(
    () =>
      encodeUploadMetadata({
        ...(form.getFieldsValue() as BatchValues),
        libraryId: target.libraryId,
        folderId: target.folderId,
      }),
    [form, target],
  );
  const onUploaded = useCallback(
    (file: UploadedFile) => setRows((current) => [...current.filter((row) => row.fileId !== file.fileId), file]),
    [],
  );
  const { uppy, applyMeta } = useUppy({ type, limits: limits.data, readMeta, onUploaded });

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
      const batch = (form.getFieldValue("properties") ?? {}) as Record<string, unknown>;
      const own = (fileId: string) => ownProperties.current.get(fileId) ?? {};
      // What the batch form changed after each file was sent (应用于全部文件 once the upload finished).
      const now = encodeUploadMetadata(form.getFieldsValue() as BatchValues);
      const changed = (fileId: string) => batchChanges(rows.find((row) => row.fileId === fileId)?.sentMeta ?? {}, now);
      for (const request of commitRequests(pending, fields, batch, own, changed))
        await commitStories(type, request.libraryId, request.storyIds, request.extra);
      return pending;
    },
    onSuccess: (done) => {
      setCommitted((current) => [...current, ...done]);
      onCommitted?.(done);
      void queryClient.invalidateQueries({ queryKey: storyKeys.details() });
      message.success(t("upload.commit.done", { count: done.length }));
      // The batch's keywords lead the user's keyword history, which the keyword picker offers first.
      const keywords = ((form.getFieldValue("keywords") ?? []) as string[]).map((word) => word.trim()).filter(Boolean);
      if (keywords.length > 0)
        void recordKeywordHistory(keywords, { silent: true })
          .then(() => queryClient.invalidateQueries({ queryKey: catalogueKeys.keywordHistory() }))
          .catch(() => undefined);
    },
  });

  const accepted = ACCEPTED[type].join(" ");
  return (
    <div data-testid={`upload-page-${type}`}>
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={15}>
          <UploadTarget target={target} onChange={setTarget} accepted={accepted} maxSize={maxSize} />
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
            <TemplatePicker form={form} fields={fields} libraryId={target.libraryId} onApplied={applyMeta} />
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
              <UploadedStoryRow key={row.fileId} row={row} type={type} fields={fields} onProperties={onProperties} />
            ))}
          </div>
        </Card>
      ) : null}
    </div>
  );
}
