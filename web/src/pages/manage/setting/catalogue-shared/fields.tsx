import type { ProColumns } from "@ant-design/pro-components";
import { ProFormDigit, ProFormText, ProFormTextArea } from "@ant-design/pro-components";
import type { TFunction } from "i18next";
import { dateTimeColumn } from "../../../../components/crud-table/columns";

/** The name field every catalogue form has: required, at most 100 characters. */
export function NameField({ t, label }: { t: TFunction; label?: string }) {
  return (
    <ProFormText
      name="name"
      label={label ?? t("catalogue.name")}
      rules={[
        { required: true, whitespace: true, message: t("catalogue.name.required") },
        { max: 100, message: t("catalogue.name.max") },
      ]}
    />
  );
}

export function DescriptionField({ t }: { t: TFunction }) {
  return (
    <ProFormTextArea
      name="description"
      label={t("catalogue.description")}
      fieldProps={{ rows: 3 }}
      rules={[{ max: 500, message: t("catalogue.description.max") }]}
    />
  );
}

export function SortOrderField({ t }: { t: TFunction }) {
  return (
    <ProFormDigit
      name="sortOrder"
      label={t("catalogue.sortOrder")}
      min={0}
      max={100_000}
      fieldProps={{ precision: 0 }}
    />
  );
}

/** The update-time column of catalogue lists (hidden on narrow screens). */
export function updateTimeColumn<T extends { updateTime: string }>(t: TFunction): ProColumns<T> {
  return dateTimeColumn<T>(t("catalogue.updateTime"), "updateTime");
}
