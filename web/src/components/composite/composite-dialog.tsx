import { PlusOutlined } from "@ant-design/icons";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Alert, Button, Form, Input, Modal, Select, Skeleton, Space, Typography } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  type CompositeSave,
  commitComposite,
  compositeKeys,
  createComposite,
  editBodyOf,
  type ManuscriptMember,
  saveComposite,
  type TextDoc,
  useCompositeText,
} from "../../api/composites";
import { isWritable, useLibraries } from "../../api/libraries";
import { statisticsKeys } from "../../api/statistics";
import { type Story, storyKeys } from "../../api/stories";
import { seededLibraryName } from "../../locales/seeded";
import { useFeedback } from "../feedback";
import { ConflictAlert } from "../story-edit/conflict-alert";
import { CatalogueItems } from "../uploader/batch-form";
import { addMembers } from "./composite-logic";
import { MemberList } from "./member-list";
import { MemberPicker } from "./member-picker";
import { TextEditor } from "./text-editor";

/** What the dialog opens on: a new composite (empty, or of a selection) or one to edit. */
export type CompositeTarget =
  | { kind: "create"; libraryId?: string; members: ManuscriptMember[] }
  | { kind: "edit"; story: Story };

interface Values {
  libraryId?: string;
  title: string;
  caption: string;
  authors: string[];
  keywords: string[];
  tags: string[];
}

/**
 * 组图: a composite's title and caption, its members in order (dragged),
 * its cover (one of the members), and its text with members placed inline.
 * 保存 keeps it (a draft stays a draft); 提交 saves and commits it. An edit
 * is based on the revision it was opened from (If-Match): when someone else
 * saved in between, the dialog says so and reloads theirs or overwrites.
 */
export function CompositeDialog({
  target,
  onClose,
  onSaved,
}: {
  target: CompositeTarget;
  onClose: () => void;
  onSaved?: (story: Story) => void;
}) {
  const { t } = useTranslation();
  const editing = target.kind === "edit" ? target.story : null;
  const [base, setBase] = useState<Story | null>(editing);
  const queryClient = useQueryClient();
  const text = useCompositeText(base, base !== null);
  const loading = base !== null && !text.data;
  return (
    <Modal
      open
      title={editing ? t("composite.editTitle") : t("composite.createTitle")}
      width="min(960px, calc(100vw - 16px))"
      onCancel={onClose}
      destroyOnHidden
      maskClosable={false}
      footer={null}
      data-testid="composite-dialog"
    >
      {loading ? <Skeleton active paragraph={{ rows: 8 }} /> : null}
      {text.isError ? <Alert type="error" message={t("composite.loadFailed")} /> : null}
      {!loading ? (
        <CompositeForm
          // A reload of the other person's save starts the form again from it.
          key={base?.revision ?? "new"}
          target={target}
          base={base}
          initialMembers={base ? (text.data?.members ?? []) : target.kind === "create" ? target.members : []}
          initialText={base ? (text.data?.doc ?? null) : null}
          onReload={(current) => {
            // The text is asked for again: the form starts from the other person's save.
            queryClient.removeQueries({ queryKey: compositeKeys.text(current) });
            setBase(current);
          }}
          onClose={onClose}
          onSaved={onSaved}
        />
      ) : null}
    </Modal>
  );
}

function CompositeForm({
  target,
  base,
  initialMembers,
  initialText,
  onReload,
  onClose,
  onSaved,
}: {
  target: CompositeTarget;
  base: Story | null;
  initialMembers: ManuscriptMember[];
  initialText: TextDoc | null;
  onReload: (current: Story) => void;
  onClose: () => void;
  onSaved?: (story: Story) => void;
}) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<Values>();
  const libraries = useLibraries();
  const writable = (libraries.data ?? []).filter(isWritable);
  const [members, setMembers] = useState<ManuscriptMember[]>(initialMembers);
  const [doc, setDoc] = useState<TextDoc | null>(initialText);
  const [cover, setCover] = useState<string | null>(null);
  const [picking, setPicking] = useState(false);
  const [conflict, setConflict] = useState<Story | null>(null);
  const firstWritable = writable[0]?.id;
  // A new composite goes to the first library the user may write to until another is chosen.
  useEffect(() => {
    if (base === null && firstWritable && !form.getFieldValue("libraryId"))
      form.setFieldValue("libraryId", firstWritable);
  }, [base, firstWritable, form]);

  const save = useMutation({
    mutationFn: async ({ commit, basedOn }: { commit: boolean; basedOn: number | null }) => {
      const values = await form.validateFields();
      const body: CompositeSave = {
        title: values.title.trim(),
        caption: values.caption ?? "",
        authors: values.authors ?? [],
        keywords: values.keywords ?? [],
        tags: values.tags ?? [],
        members: members.map(({ libraryId, storyId }) => ({ libraryId, storyId })),
        text: doc,
        cover: members.find((member) => member.storyId === cover),
      };
      let saved: Story;
      if (base && basedOn !== null) {
        const result = await saveComposite(base, editBodyOf(body), basedOn);
        if (result.kind === "stale") return { stale: result.current };
        saved = result.story;
      } else {
        saved = await createComposite(values.libraryId ?? "", body);
      }
      if (commit) await commitComposite(saved);
      return { saved, committed: commit };
    },
    onSuccess: async (result) => {
      if ("stale" in result) {
        setConflict(result.stale ?? null);
        return;
      }
      message.success(result.committed ? t("composite.committed") : t("composite.saved"));
      queryClient.removeQueries({ queryKey: compositeKeys.text(result.saved) });
      void queryClient.invalidateQueries({ queryKey: storyKeys.all });
      void queryClient.invalidateQueries({ queryKey: statisticsKeys.all });
      onSaved?.(result.saved);
      onClose();
    },
  });

  const draft = base === null || base.status === "draft";
  const run = (commit: boolean, basedOn = base?.revision ?? null) => save.mutate({ commit, basedOn });
  const oneLibrary = target.kind === "create" ? target.libraryId : undefined;
  const initialValues: Values = base
    ? {
        title: base.title,
        caption: base.caption,
        authors: base.authors,
        keywords: base.keywords,
        tags: base.tags,
      }
    : {
        libraryId: oneLibrary ?? writable[0]?.id,
        title: "",
        caption: "",
        authors: [],
        keywords: [],
        tags: [],
      };

  return (
    <>
      {conflict ? (
        <ConflictAlert
          testId="composite-conflict"
          description={t("composite.conflict")}
          action={
            <Space direction="vertical">
              <Button size="small" onClick={() => onReload(conflict)} data-testid="composite-reload">
                {t("editInfo.conflict.reload")}
              </Button>
              <Button
                size="small"
                danger
                loading={save.isPending}
                onClick={() => run(false, conflict.revision)}
                data-testid="composite-overwrite"
              >
                {t("editInfo.conflict.overwrite")}
              </Button>
            </Space>
          }
        />
      ) : null}
      <Form form={form} layout="vertical" initialValues={initialValues} data-testid="composite-form">
        {base === null ? (
          <Form.Item
            name="libraryId"
            label={t("composite.library")}
            rules={[{ required: true, message: t("composite.libraryRequired") }]}
          >
            <Select
              disabled={oneLibrary !== undefined}
              loading={libraries.isLoading}
              options={writable.map((library) => ({ value: library.id, label: seededLibraryName(library, t) }))}
            />
          </Form.Item>
        ) : null}
        <Form.Item
          name="title"
          label={t("editInfo.field.title")}
          rules={[{ required: true, whitespace: true, message: t("composite.titleRequired") }, { max: 500 }]}
        >
          <Input data-testid="composite-title" />
        </Form.Item>
        <Form.Item name="caption" label={t("editInfo.field.caption")} rules={[{ max: 20_000 }]}>
          <Input.TextArea rows={2} />
        </Form.Item>
        <div style={{ display: "grid", gridTemplateColumns: "repeat(auto-fit, minmax(200px, 1fr))", columnGap: 12 }}>
          <CatalogueItems labels="editInfo.field" only={["keywords", "tags", "authors"]} />
        </div>
      </Form>
      <div style={{ display: "flex", alignItems: "center", justifyContent: "space-between", margin: "4px 0 8px" }}>
        <Typography.Text strong>{t("composite.members", { count: members.length })}</Typography.Text>
        <Button size="small" icon={<PlusOutlined />} onClick={() => setPicking(true)} data-testid="composite-add">
          {t("composite.addMembers")}
        </Button>
      </div>
      <MemberList members={members} cover={cover} onChange={setMembers} onCover={setCover} />
      {base?.coverMediaUrl && cover === null ? (
        <Typography.Text type="secondary" style={{ display: "block", marginBottom: 8 }}>
          {t("composite.coverKept")}
        </Typography.Text>
      ) : null}
      <Typography.Text strong style={{ display: "block", margin: "12px 0 8px" }}>
        {t("composite.text.title")}
      </Typography.Text>
      <TextEditor initial={initialText} members={members} onChange={setDoc} />
      <div style={{ display: "flex", justifyContent: "flex-end", flexWrap: "wrap", gap: 8, marginTop: 16 }}>
        <Button onClick={onClose}>{t("crud.cancel")}</Button>
        <Button
          type={draft ? "default" : "primary"}
          loading={save.isPending}
          onClick={() => run(false)}
          data-testid="composite-save"
        >
          {t("composite.save")}
        </Button>
        {draft ? (
          <Button
            type="primary"
            loading={save.isPending}
            disabled={members.length === 0}
            onClick={() => run(true)}
            data-testid="composite-commit"
          >
            {t("composite.commit")}
          </Button>
        ) : null}
      </div>
      {picking ? (
        <MemberPicker
          present={new Set(members.map((member) => member.storyId))}
          onClose={() => setPicking(false)}
          onAdd={(more) => setMembers((current) => addMembers(current, more))}
        />
      ) : null}
    </>
  );
}
