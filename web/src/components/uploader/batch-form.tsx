import type { FormInstance } from "antd";
import { DatePicker, Form, Input, InputNumber, Select, Switch } from "antd";
import dayjs from "dayjs";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { CatalogueNameKind } from "../../api/catalogue";
import { useCatalogueNames, useKeywordHistory, useMostUsedKeywords } from "../../api/catalogue";
import type { PropertyField } from "./upload-logic";

const PICKER_SIZE = 50;
const unique = (values: string[]) => [...new Set(values.filter(Boolean))].map((value) => ({ value, label: value }));

/** Keywords: the user's history first, then the most used; new ones may be typed. */
export function KeywordSelect(props: { value?: string[]; onChange?: (value: string[]) => void; id?: string }) {
  const [search, setSearch] = useState("");
  const history = useKeywordHistory();
  const used = useMostUsedKeywords(search, PICKER_SIZE);
  const options = unique([
    ...(search ? [] : (history.data?.content ?? []).map((entry) => entry.keyword)),
    ...(used.data ?? []).map((keyword) => keyword.name),
  ]);
  return (
    <Select
      {...props}
      mode="tags"
      options={options}
      onSearch={setSearch}
      tokenSeparators={[",", "，", ";"]}
      loading={used.isFetching}
    />
  );
}

/** A select over one catalogue list, searched on the server. */
export function CatalogueSelect(props: {
  value?: string | string[];
  onChange?: (value: string | string[]) => void;
  id?: string;
  multiple?: boolean;
  kind: CatalogueNameKind;
}) {
  const { kind, multiple, ...rest } = props;
  const [search, setSearch] = useState("");
  const query = useCatalogueNames(kind, search, PICKER_SIZE);
  return (
    <Select
      {...rest}
      showSearch
      allowClear
      mode={multiple ? "tags" : undefined}
      options={unique(query.data ?? [])}
      onSearch={setSearch}
      filterOption={false}
      loading={query.isFetching}
    />
  );
}

/** A story form's catalogue fields, each with its picker, in this order. */
const CATALOGUE_ITEMS = [
  { name: "keywords" },
  { name: "tags", kind: "tags", multiple: true },
  { name: "authors", kind: "authors", multiple: true },
  { name: "source", kind: "sources" },
  { name: "theme", kind: "themes" },
  { name: "category", kind: "categories" },
] as const satisfies readonly { name: string; kind?: CatalogueNameKind; multiple?: boolean }[];

export type CatalogueItemName = (typeof CATALOGUE_ITEMS)[number]["name"];

/**
 * The catalogue fields of a story form (the upload batch form, the edit and composite dialogs): keywords with their
 * picker, the other lists with theirs; `labels` names the form's own labels, `only` keeps some of the fields.
 */
export function CatalogueItems({
  labels,
  only,
}: {
  labels: "upload.field" | "editInfo.field";
  only?: readonly CatalogueItemName[];
}) {
  const { t } = useTranslation();
  return CATALOGUE_ITEMS.filter((item) => !only || only.includes(item.name)).map((item) => (
    <Form.Item key={item.name} name={item.name} label={t(`${labels}.${item.name}`)}>
      {"kind" in item ? <CatalogueSelect kind={item.kind} multiple={"multiple" in item} /> : <KeywordSelect />}
    </Form.Item>
  ));
}

/** One custom property's input. */
export function PropertyInput({
  field,
  ...props
}: {
  field: PropertyField;
  value?: unknown;
  onChange?: (v: unknown) => void;
  disabled?: boolean;
}) {
  switch (field.kind) {
    case "textarea":
      return <Input.TextArea rows={2} {...(props as object)} />;
    case "number":
      return <InputNumber style={{ width: "100%" }} {...(props as object)} />;
    case "date":
      return <DatePicker style={{ width: "100%" }} {...(props as object)} />;
    case "select":
      return <Select allowClear options={field.options} {...(props as object)} />;
    case "multiselect":
      return <Select mode="multiple" allowClear options={field.options} {...(props as object)} />;
    case "switch":
      return <Switch {...(props as object)} />;
    default:
      return <Input {...(props as object)} />;
  }
}

/**
 * A custom property's form item under `properties.{name}`. The batch form
 * starts from the property's default and requires what is required; a file's
 * own form (`own`) starts empty and requires nothing: what it leaves empty
 * comes from the batch.
 */
export function PropertyItem({
  field,
  own = false,
  disabled = false,
}: {
  field: PropertyField;
  own?: boolean;
  /** Shown but not editable (a property the caller's role may not edit). */
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Form.Item
      name={["properties", field.name]}
      label={field.label}
      initialValue={
        own
          ? undefined
          : field.kind === "date" && typeof field.initialValue === "string"
            ? dayjs(field.initialValue)
            : field.initialValue
      }
      valuePropName={field.kind === "switch" ? "checked" : "value"}
      extra={disabled ? t("editInfo.notEditable") : undefined}
      rules={
        field.required && !own ? [{ required: true, message: t("upload.field.required", { label: field.label }) }] : []
      }
    >
      <PropertyInput field={field} disabled={disabled} />
    </Form.Item>
  );
}

/**
 * The values for the whole batch: the story fields the upload carries as
 * Upload-Metadata, then the library's custom properties (quick ones first).
 */
export function BatchForm({
  form,
  fields,
  onChange,
}: {
  form: FormInstance;
  fields: PropertyField[];
  onChange: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Form form={form} layout="vertical" onValuesChange={onChange} data-testid="upload-batch-form">
      <Form.Item name="title" label={t("upload.field.title")}>
        <Input placeholder={t("upload.field.title.placeholder")} />
      </Form.Item>
      <Form.Item name="caption" label={t("upload.field.caption")}>
        <Input.TextArea rows={3} />
      </Form.Item>
      <CatalogueItems labels="upload.field" />
      {fields.map((field) => (
        <PropertyItem key={field.name} field={field} />
      ))}
    </Form>
  );
}
