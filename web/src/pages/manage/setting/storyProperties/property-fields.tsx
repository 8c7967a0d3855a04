import { ProFormDependency, ProFormSelect, ProFormSwitch, ProFormText } from "@ant-design/pro-components";
import { Form } from "antd";
import type { TFunction } from "i18next";
import type { PropertyKind, StoryProperty } from "../../../../api/catalogue";
import { useAllCodelists, useCodelistOptions } from "../../../../api/catalogue";
import { SortOrderField } from "../catalogue-shared/fields";
import { DATE_PATTERN, NUMBER_PATTERN, needsCodelist } from "../catalogue-shared/form-values";

export const STORY_TYPES = ["photo", "video", "audio"] as const;
export const PROPERTY_KINDS: PropertyKind[] = ["text", "textarea", "number", "date", "select", "multiselect", "switch"];
const KEY = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;

function DefaultValueField({ t, kind, codelistId }: { t: TFunction; kind?: PropertyKind; codelistId?: string }) {
  const options = useCodelistOptions(codelistId, needsCodelist(kind));
  const label = t("catalogue.property.defaultValue");
  if (needsCodelist(kind)) {
    return (
      <ProFormSelect
        name="defaultValue"
        label={label}
        mode={kind === "multiselect" ? "multiple" : undefined}
        allowClear
        options={(options.data ?? []).map((option) => ({ label: option.label, value: option.value }))}
        fieldProps={{ loading: options.isFetching }}
      />
    );
  }
  if (kind === "switch") {
    return (
      <ProFormSelect
        name="defaultValue"
        label={label}
        allowClear
        options={[
          { label: t("catalogue.yes"), value: "true" },
          { label: t("catalogue.no"), value: "false" },
        ]}
      />
    );
  }
  const rules =
    kind === "number"
      ? [{ pattern: NUMBER_PATTERN, message: t("catalogue.property.defaultValue.number") }]
      : kind === "date"
        ? [{ pattern: DATE_PATTERN, message: t("catalogue.property.defaultValue.date") }]
        : [{ max: 1000, message: t("catalogue.max", { max: 1000 }) }];
  return (
    <ProFormText
      name="defaultValue"
      label={label}
      placeholder={kind === "date" ? "YYYY-MM-DD" : undefined}
      rules={rules}
    />
  );
}

function KindField({ t }: { t: TFunction }) {
  const form = Form.useFormInstance();
  return (
    <ProFormSelect
      name="kind"
      label={t("catalogue.property.kind")}
      initialValue="text"
      rules={[{ required: true }]}
      options={PROPERTY_KINDS.map((kind) => ({ label: t(`catalogue.property.kind.${kind}`), value: kind }))}
      // A default of one kind means nothing to another.
      fieldProps={{ onChange: () => form.setFieldValue("defaultValue", undefined) }}
    />
  );
}

/** The add/edit form of a story property; the key is fixed once created (stories hold values under it). */
export function PropertyFields({
  t,
  property,
  storyType,
}: {
  t: TFunction;
  property?: StoryProperty;
  storyType?: string;
}) {
  const codelists = useAllCodelists();
  return (
    <>
      <ProFormSelect
        name="storyType"
        label={t("catalogue.property.storyType")}
        initialValue={storyType ?? "photo"}
        rules={[{ required: true }]}
        options={STORY_TYPES.map((type) => ({ label: t(`catalogue.property.storyType.${type}`), value: type }))}
      />
      <ProFormText
        name="libraryId"
        label={t("catalogue.property.library")}
        placeholder={t("catalogue.property.library.placeholder")}
        rules={[{ max: 100, message: t("catalogue.max", { max: 100 }) }]}
      />
      <ProFormText
        name="name"
        label={t("catalogue.property.name")}
        disabled={Boolean(property)}
        rules={[
          { required: true, whitespace: true, message: t("catalogue.property.name.required") },
          { pattern: KEY, message: t("catalogue.property.name.invalid") },
        ]}
      />
      <ProFormText
        name="label"
        label={t("catalogue.property.label")}
        rules={[
          { required: true, whitespace: true, message: t("catalogue.property.label.required") },
          { max: 100, message: t("catalogue.max", { max: 100 }) },
        ]}
      />
      <KindField t={t} />
      <ProFormDependency name={["kind"]}>
        {({ kind }: { kind?: PropertyKind }) =>
          needsCodelist(kind) ? (
            <ProFormSelect
              name="codelistId"
              label={t("catalogue.property.codelist")}
              rules={[{ required: true, message: t("catalogue.property.codelist.required") }]}
              options={(codelists.data ?? []).map((list) => ({ label: `${list.name} (${list.code})`, value: list.id }))}
              fieldProps={{ loading: codelists.isPending, showSearch: true, optionFilterProp: "label" }}
            />
          ) : null
        }
      </ProFormDependency>
      <ProFormDependency name={["kind", "codelistId"]}>
        {({ kind, codelistId }: { kind?: PropertyKind; codelistId?: string }) => (
          <DefaultValueField key={`${kind}/${codelistId}`} t={t} kind={kind} codelistId={codelistId} />
        )}
      </ProFormDependency>
      <ProFormSwitch name="required" label={t("catalogue.property.required")} />
      <ProFormSwitch
        name="isquick"
        label={t("catalogue.property.isquick")}
        tooltip={t("catalogue.property.isquick.hint")}
      />
      <SortOrderField t={t} />
    </>
  );
}
