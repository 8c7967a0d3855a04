import { ProFormList, ProFormSelect, ProFormText, ProFormTextArea } from "@ant-design/pro-components";
import { Alert, Space } from "antd";
import type { TFunction } from "i18next";
import { DescriptionField, NameField } from "../../catalogue-shared/fields";

const V = (field: string) => ["values", field];
const KEY = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;

function ListField({ name, label }: { name: string; label: string }) {
  return (
    <ProFormSelect
      name={V(name)}
      label={label}
      mode="tags"
      fieldProps={{ tokenSeparators: [",", "，", ";"], open: false, suffixIcon: null }}
    />
  );
}

/** A template's form: its name, the story fields it sets, and custom properties by key. */
export function TemplateFields({ t }: { t: TFunction }) {
  return (
    <>
      <NameField t={t} />
      <DescriptionField t={t} />
      <Alert type="info" showIcon style={{ marginBottom: 16 }} message={t("templates.variables")} />
      <ProFormText name={V("title")} label={t("upload.field.title")} rules={[{ max: 500 }]} />
      <ProFormTextArea name={V("caption")} label={t("upload.field.caption")} fieldProps={{ rows: 2 }} />
      <ListField name="keywords" label={t("upload.field.keywords")} />
      <ListField name="tags" label={t("upload.field.tags")} />
      <ListField name="authors" label={t("upload.field.authors")} />
      <Space wrap>
        <ProFormText name={V("source")} label={t("upload.field.source")} rules={[{ max: 200 }]} />
        <ProFormText name={V("theme")} label={t("upload.field.theme")} rules={[{ max: 200 }]} />
        <ProFormText name={V("category")} label={t("upload.field.category")} rules={[{ max: 200 }]} />
      </Space>
      <ProFormList
        name="propertyList"
        label={t("templates.properties")}
        tooltip={t("templates.properties.hint")}
        creatorButtonProps={{ creatorButtonText: t("templates.properties.add") }}
        copyIconProps={false}
      >
        <Space wrap align="start">
          <ProFormText
            name="key"
            placeholder={t("templates.properties.key")}
            rules={[
              { required: true, message: t("templates.properties.key") },
              { pattern: KEY, message: t("templates.properties.keyInvalid") },
            ]}
          />
          <ProFormText name="value" placeholder={t("templates.properties.value")} rules={[{ max: 2000 }]} />
        </Space>
      </ProFormList>
    </>
  );
}
