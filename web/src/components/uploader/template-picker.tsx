import { type FormInstance, Select } from "antd";
import dayjs from "dayjs";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { applyMetadataTemplate, type TemplateValues, useMetadataTemplates } from "../../api/metadata-templates";
import { defaultOf, type PropertyField } from "./upload-logic";

const STORY_FIELDS = ["title", "caption", "keywords", "tags", "authors", "source", "theme", "category"] as const;

/** The form values a template's (expanded) values set: story fields, then the library's properties by key. */
export function templateFormValues(values: TemplateValues, fields: PropertyField[]): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  for (const key of STORY_FIELDS) if (values[key] !== undefined) patch[key] = values[key];
  const properties: Record<string, unknown> = {};
  for (const field of fields) {
    const text = values.properties?.[field.name];
    if (text === undefined) continue;
    properties[field.name] = field.kind === "date" ? dayjs(text) : defaultOf({ kind: field.kind, defaultValue: text });
  }
  if (Object.keys(properties).length > 0) patch.properties = properties;
  return patch;
}

/** Applies a metadata template to the batch form in one click ({date}, {user}, {library} filled by the server). */
export function TemplatePicker({
  form,
  fields,
  libraryId,
  onApplied,
}: {
  form: FormInstance;
  fields: PropertyField[];
  libraryId: string | undefined;
  onApplied: () => void;
}) {
  const { t } = useTranslation();
  const templates = useMetadataTemplates();
  const [applying, setApplying] = useState(false);
  if ((templates.data ?? []).length === 0) return null;
  return (
    <Select
      data-testid="template-picker"
      style={{ width: "100%", marginBottom: 12 }}
      placeholder={t("templates.apply")}
      value={null}
      loading={applying}
      disabled={!libraryId}
      options={(templates.data ?? []).map((template) => ({ value: template.id, label: template.name }))}
      onChange={async (templateId: string | null) => {
        if (!templateId || !libraryId) return;
        setApplying(true);
        try {
          form.setFieldsValue(templateFormValues(await applyMetadataTemplate(templateId, libraryId), fields));
          onApplied();
        } finally {
          setApplying(false);
        }
      }}
    />
  );
}
