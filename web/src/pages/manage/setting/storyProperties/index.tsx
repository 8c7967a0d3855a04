import type { ProColumns } from "@ant-design/pro-components";
import { Input, Select, Space, Tag } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import {
  createProperty,
  deleteProperty,
  listProperties,
  type PropertyKind,
  type StoryProperty,
  type StoryType,
  updateProperty,
} from "../../../../api/catalogue";
import { CrudTable } from "../../../../components/crud-table";
import { crudAccess } from "../../../../components/crud-table/resource-table";
import {
  type DefaultFieldValue,
  defaultFromField,
  defaultToField,
  needsCodelist,
  orderOrZero,
  textOrNull,
  trimmed,
} from "../catalogue-shared/form-values";
import { PropertyFields, STORY_TYPES } from "./property-fields";

const PERMISSION = "manage.setting.storyProperties";
/** The API's library filter for the properties of every library. */
const EVERY_LIBRARY = "*";

interface PropertyForm extends Record<string, unknown> {
  storyType: StoryType;
  libraryId?: string;
  name: string;
  label: string;
  kind: PropertyKind;
  codelistId?: string;
  defaultValue?: DefaultFieldValue;
  required?: boolean;
  isquick?: boolean;
  sortOrder?: number;
}

const toInput = (values: PropertyForm) => ({
  storyType: values.storyType,
  libraryId: textOrNull(values.libraryId),
  name: trimmed(values.name),
  label: trimmed(values.label),
  kind: values.kind,
  codelistId: needsCodelist(values.kind) ? (values.codelistId ?? null) : null,
  defaultValue: defaultFromField(values.kind, values.defaultValue),
  required: values.required ?? false,
  isquick: values.isquick ?? false,
  sortOrder: orderOrZero(values.sortOrder),
});

export default function ManageSettingStoryPropertiesPage() {
  const { t } = useTranslation();
  const [storyType, setStoryType] = useState<StoryType | undefined>(undefined);
  const [library, setLibrary] = useState("");
  const [libraryText, setLibraryText] = useState("");
  const yesNo = (value: boolean) => (value ? <Tag color="blue">{t("catalogue.yes")}</Tag> : "—");

  const columns: ProColumns<StoryProperty>[] = [
    {
      title: t("catalogue.property.storyType"),
      dataIndex: "storyType",
      width: 90,
      render: (_, property) => t(`catalogue.property.storyType.${property.storyType}`),
    },
    {
      title: t("catalogue.property.library"),
      dataIndex: "libraryId",
      render: (_, property) => property.libraryId ?? t("catalogue.property.library.every"),
    },
    { title: t("catalogue.property.name"), dataIndex: "name" },
    { title: t("catalogue.property.label"), dataIndex: "label" },
    {
      title: t("catalogue.property.kind"),
      dataIndex: "kind",
      render: (_, property) =>
        `${t(`catalogue.property.kind.${property.kind}`)}${property.codelistName ? ` · ${property.codelistName}` : ""}`,
    },
    { title: t("catalogue.property.required"), dataIndex: "required", width: 70, render: (_, p) => yesNo(p.required) },
    { title: t("catalogue.property.isquick"), dataIndex: "isquick", width: 90, render: (_, p) => yesNo(p.isquick) },
    { title: t("catalogue.property.defaultValue"), dataIndex: "defaultValue", responsive: ["lg"] },
    { title: t("catalogue.sortOrder"), dataIndex: "sortOrder", width: 70 },
  ];

  const filters = (
    <Space wrap>
      <Select<StoryType | "">
        aria-label={t("catalogue.property.storyType")}
        style={{ width: 140 }}
        value={storyType ?? ""}
        onChange={(value) => setStoryType(value || undefined)}
        options={[
          { label: t("catalogue.property.storyType.all"), value: "" },
          ...STORY_TYPES.map((type) => ({ label: t(`catalogue.property.storyType.${type}`), value: type })),
        ]}
      />
      <Select<string>
        aria-label={t("catalogue.property.library.filter")}
        style={{ width: 160 }}
        value={library === EVERY_LIBRARY ? EVERY_LIBRARY : ""}
        onChange={(value) => {
          setLibrary(value);
          setLibraryText("");
        }}
        options={[
          { label: t("catalogue.property.library.filter"), value: "" },
          { label: t("catalogue.property.library.every"), value: EVERY_LIBRARY },
        ]}
      />
      <Input.Search
        aria-label={t("catalogue.property.library")}
        placeholder={t("catalogue.property.library")}
        allowClear
        style={{ width: 180 }}
        value={libraryText}
        onChange={(event) => setLibraryText(event.target.value)}
        onSearch={(value) => setLibrary(value.trim())}
      />
    </Space>
  );

  return (
    <CrudTable<StoryProperty, PropertyForm>
      // A new filter is a new list: remount so paging starts again.
      key={`${storyType ?? ""}/${library}`}
      rowKey="id"
      headerTitle={
        <Space size="large" wrap>
          {t("catalogue.property.title")}
          {filters}
        </Space>
      }
      columns={columns}
      list={(query) => listProperties({ ...query, storytype: storyType, libraryId: library || undefined })}
      access={crudAccess(PERMISSION)}
      create={(values) => createProperty(toInput(values))}
      update={(property, values) => updateProperty(property.id, toInput({ ...values, name: property.name }))}
      remove={(property) => deleteProperty(property.id)}
      toFormValues={(property) => ({
        storyType: property.storyType,
        libraryId: property.libraryId ?? undefined,
        name: property.name,
        label: property.label,
        kind: property.kind,
        codelistId: property.codelistId ?? undefined,
        defaultValue: defaultToField(property.kind, property.defaultValue),
        required: property.required,
        isquick: property.isquick,
        sortOrder: property.sortOrder,
      })}
      formFields={(property) => <PropertyFields t={t} property={property} storyType={storyType} />}
    />
  );
}
