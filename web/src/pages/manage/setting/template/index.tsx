import type { ProColumns } from "@ant-design/pro-components";
import { useTranslation } from "react-i18next";
import {
  type MetadataTemplate,
  type MetadataTemplateInput,
  metadataTemplateCalls,
  type TemplateValues,
} from "../../../../api/metadata-templates";
import { dateTimeColumn } from "../../../../components/crud-table/columns";
import { ResourceTable } from "../../../../components/crud-table/resource-table";
import { textOrNull, trimmed } from "../catalogue-shared/form-values";
import { TemplateFields } from "./components/template-fields";

/** The route key of this screen: the permissionId its buttons check. */
const PERMISSION = "manage.setting.template";

interface TemplateForm extends Record<string, unknown> {
  name: string;
  description?: string;
  values?: Omit<TemplateValues, "properties">;
  propertyList?: { key: string; value?: string }[];
}

/** Empty fields are left out: a template sets only what it names. */
export function toTemplateInput(form: TemplateForm): MetadataTemplateInput {
  const values: TemplateValues = {};
  for (const [key, value] of Object.entries(form.values ?? {})) {
    if (Array.isArray(value) ? value.length > 0 : typeof value === "string" && value.trim() !== "") {
      (values as Record<string, unknown>)[key] = Array.isArray(value) ? value.map(String) : value;
    }
  }
  const properties = Object.fromEntries(
    (form.propertyList ?? []).filter((entry) => entry.key).map((entry) => [entry.key.trim(), entry.value ?? ""]),
  );
  if (Object.keys(properties).length > 0) values.properties = properties;
  return { name: trimmed(form.name), description: textOrNull(form.description), values };
}

function summary(values: TemplateValues): string {
  return [values.source, values.caption, ...(values.keywords ?? []), ...Object.values(values.properties ?? {})]
    .filter(Boolean)
    .join(" · ");
}

/** /manage/setting/template: metadata templates the upload pages apply in one click. */
export default function ManageSettingTemplatePage() {
  const { t } = useTranslation();
  const columns: ProColumns<MetadataTemplate>[] = [
    { title: t("catalogue.name"), dataIndex: "name" },
    {
      title: t("templates.values"),
      key: "values",
      ellipsis: true,
      responsive: ["md"],
      render: (_, template) => summary(template.values),
    },
    dateTimeColumn(t("catalogue.updateTime"), "updatedAt"),
  ];
  return (
    <ResourceTable<MetadataTemplate, TemplateForm, MetadataTemplateInput>
      permission={PERMISSION}
      titleKey="templates.title"
      columns={columns}
      calls={metadataTemplateCalls}
      toInput={toTemplateInput}
      toFormValues={(template) => {
        const { properties, ...rest } = template.values;
        return {
          name: template.name,
          description: template.description ?? undefined,
          values: rest,
          propertyList: Object.entries(properties ?? {}).map(([key, value]) => ({ key, value })),
        };
      }}
      formFields={() => <TemplateFields t={t} />}
    />
  );
}
