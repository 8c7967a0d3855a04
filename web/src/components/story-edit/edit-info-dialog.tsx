import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Button, DatePicker, Descriptions, Form, Input, Modal, Space } from "antd";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { type StoryProperty, useFormProperties, useLockedProperties } from "../../api/catalogue";
import { type InformationSave, type Story, saveStoryInformation, storyKeys } from "../../api/stories";
import { seededPropertyLabel } from "../../locales/seeded";
import { useFeedback } from "../feedback";
import { CatalogueItems, PropertyItem } from "../uploader/batch-form";
import { fieldsFromProperties } from "../uploader/upload-logic";
import { ConflictAlert } from "./conflict-alert";
import {
  type InformationValues,
  informationChanges,
  informationValues,
  iptcKeys,
  type TheirChange,
  theirChanges,
} from "./edit-info-logic";
import { StoryEditAction } from "./story-edit-action";

/** The 编辑信息 button (viewer toolbar, list rows) for those who may edit stories. */
export function EditInfoAction({
  story,
  link = false,
  onSaved,
}: {
  story: Story;
  link?: boolean;
  /** After a save (a list that is not a query of its own reloads). */
  onSaved?: () => void;
}) {
  const { t } = useTranslation();
  return (
    <StoryEditAction
      link={link}
      label={t("editInfo.action")}
      testId="story-edit-info"
      dialog={(close) => <EditInfoDialog story={story} onClose={close} onSaved={onSaved} />}
    />
  );
}

/** Someone else's save landed first: the story as it is now, and what they changed. */
interface Conflict {
  current: Story;
  changes: TheirChange[];
}

/**
 * 编辑信息: every field of the story in one form, with the upload form's
 * pickers. Saves only what the user changed, based on the revision the form
 * was filled from (If-Match); when someone else saved in between, shows
 * their values and lets the user reload them or overwrite them deliberately.
 */
export function EditInfoDialog({
  story,
  onClose,
  onSaved,
}: {
  story: Story;
  onClose: () => void;
  onSaved?: () => void;
}) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const queryClient = useQueryClient();
  const [form] = Form.useForm();
  /** The story the form's values were filled from (its revision is the save's If-Match). */
  const [base, setBase] = useState(story);
  const [conflict, setConflict] = useState<Conflict | null>(null);
  const media = story.type !== "composite";
  const definitions = useFormProperties(story.type as StoryProperty["storyType"], story.libraryId, {
    enabled: media,
    staleTime: 60_000,
  });
  // IPTC texts the role may not edit are disabled, as the server refuses them (property_not_editable).
  const locked = useLockedProperties().data;
  const fields = useMemo(
    () =>
      fieldsFromProperties(
        (definitions.data ?? []).map((property) => ({ ...property, label: seededPropertyLabel(property, t) })),
      ).map((field) => ({ ...field, initialValue: undefined })),
    [definitions.data, t],
  );
  const ready = !media || !definitions.isLoading;

  const save = useMutation({
    mutationFn: async ({ basedOn }: { basedOn: Story }): Promise<InformationSave | null> => {
      const values: Partial<InformationValues> = await form.validateFields();
      const changes = informationChanges(base, values, fields);
      if (Object.keys(changes).length === 0) return null;
      return saveStoryInformation(story, changes, basedOn.revision);
    },
    onSuccess: (result) => {
      if (result?.kind === "stale") {
        setConflict({ current: result.current, changes: theirChanges(base, result.current) });
        return;
      }
      if (result) {
        queryClient.setQueryData(storyKeys.detail(story), result.story);
        // Not awaited: the dialog closes now; lists and the history refresh behind it.
        void queryClient.invalidateQueries({ queryKey: storyKeys.all });
        message.success(t("editInfo.saved"));
        onSaved?.();
      }
      onClose();
    },
  });

  const reloadTheirs = () => {
    if (!conflict) return;
    setBase(conflict.current);
    form.setFieldsValue(informationValues(conflict.current, fields));
    setConflict(null);
  };
  const overwrite = () => {
    if (!conflict) return;
    save.mutate({ basedOn: conflict.current });
  };

  const label = (field: string) =>
    field.startsWith("properties.")
      ? (fields.find((item) => `properties.${item.name}` === field)?.label ??
        t(`editInfo.field.${field.slice("properties.".length)}`, { defaultValue: field.slice("properties.".length) }))
      : t(`editInfo.field.${field}`);

  return (
    <Modal
      open
      title={t("editInfo.title")}
      width="min(760px, calc(100vw - 16px))"
      onCancel={onClose}
      destroyOnHidden
      maskClosable={false}
      footer={
        conflict
          ? [
              <Button key="cancel" onClick={onClose}>
                {t("crud.cancel")}
              </Button>,
              <Button key="reload" onClick={reloadTheirs} data-testid="edit-info-reload">
                {t("editInfo.conflict.reload")}
              </Button>,
              <Button
                key="overwrite"
                danger
                type="primary"
                loading={save.isPending}
                onClick={overwrite}
                data-testid="edit-info-overwrite"
              >
                {t("editInfo.conflict.overwrite")}
              </Button>,
            ]
          : [
              <Button key="cancel" onClick={onClose}>
                {t("crud.cancel")}
              </Button>,
              <Button
                key="save"
                type="primary"
                loading={save.isPending}
                disabled={!ready}
                onClick={() => save.mutate({ basedOn: base })}
                data-testid="edit-info-save"
              >
                {t("editInfo.save")}
              </Button>,
            ]
      }
      data-testid="edit-info-dialog"
    >
      {conflict ? (
        <ConflictAlert
          testId="edit-info-conflict"
          description={
            <Space direction="vertical" style={{ width: "100%" }}>
              <span>{t("editInfo.conflict.explain")}</span>
              {conflict.changes.length > 0 ? (
                <Descriptions size="small" column={1} bordered>
                  {conflict.changes.map((change) => (
                    <Descriptions.Item key={change.field} label={label(change.field)}>
                      {change.value || t("editInfo.conflict.empty")}
                    </Descriptions.Item>
                  ))}
                </Descriptions>
              ) : null}
            </Space>
          }
        />
      ) : null}
      {ready ? (
        <Form
          form={form}
          layout="vertical"
          initialValues={informationValues(base, fields)}
          data-testid="edit-info-form"
        >
          <Form.Item name="title" label={t("editInfo.field.title")} rules={[{ max: 500 }]}>
            <Input />
          </Form.Item>
          <Form.Item name="caption" label={t("editInfo.field.caption")} rules={[{ max: 20_000 }]}>
            <Input.TextArea rows={4} />
          </Form.Item>
          {hasIptc("headline") ? (
            <Form.Item
              name={["properties", "headline"]}
              label={t("editInfo.field.headline")}
              {...lockedItem("headline")}
            >
              <Input disabled={locked?.has("headline")} />
            </Form.Item>
          ) : null}
          <CatalogueItems labels="editInfo.field" />
          <Form.Item name="capturedAt" label={t("editInfo.field.capturedAt")}>
            <DatePicker showTime style={{ width: "100%" }} />
          </Form.Item>
          {IPTC_TEXTS.filter(hasIptc).map((key) => (
            <Form.Item key={key} name={["properties", key]} label={t(`editInfo.field.${key}`)} {...lockedItem(key)}>
              {key === "instructions" || key === "usageTerms" ? (
                <Input.TextArea rows={2} disabled={locked?.has(key)} />
              ) : (
                <Input disabled={locked?.has(key)} />
              )}
            </Form.Item>
          ))}
          {fields.map((field) => (
            <PropertyItem key={field.name} field={field} own disabled={field.editable === false} />
          ))}
        </Form>
      ) : null}
    </Modal>
  );

  function hasIptc(key: string): boolean {
    return iptcKeys(fields).includes(key);
  }

  /** A locked IPTC text says why it is disabled. */
  function lockedItem(key: string): { extra?: string } {
    return locked?.has(key) ? { extra: t("editInfo.notEditable") } : {};
  }
}

/** The IPTC texts after the catalogue fields (the headline sits under the title). */
const IPTC_TEXTS = ["credit", "copyrightNotice", "usageTerms", "instructions", "city", "country"];
