import { type ProColumns, ProFormText } from "@ant-design/pro-components";
import { Button } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { type Codelist, codelistCalls } from "../../../../api/catalogue";
import { ResourceTable } from "../../../../components/crud-table/resource-table";
import { DescriptionField, NameField, updateTimeColumn } from "../catalogue-shared/fields";
import { textOrNull, trimmed } from "../catalogue-shared/form-values";
import { OptionsModal } from "./options-modal";

const PERMISSION = "manage.setting.codelist";
const CODE = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;

interface CodelistForm extends Record<string, unknown> {
  code: string;
  name: string;
  description?: string;
}

/** Stories and properties refer to a list by its code: an edit keeps the list's own. */
const toInput = (values: CodelistForm, codelist?: Codelist) => ({
  code: trimmed(codelist ? codelist.code : values.code),
  name: trimmed(values.name),
  description: textOrNull(values.description),
});

export default function ManageSettingCodelistPage() {
  const { t } = useTranslation();
  const [managing, setManaging] = useState<Codelist | null>(null);
  const columns: ProColumns<Codelist>[] = [
    { title: t("catalogue.codelist.code"), dataIndex: "code" },
    { title: t("catalogue.name"), dataIndex: "name" },
    { title: t("catalogue.codelist.optionCount"), dataIndex: "optionCount", width: 100 },
    { title: t("catalogue.description"), dataIndex: "description", ellipsis: true, responsive: ["md"] },
    updateTimeColumn(t),
  ];
  return (
    <>
      <ResourceTable
        permission={PERMISSION}
        titleKey="catalogue.codelist.title"
        columns={columns}
        calls={codelistCalls}
        toInput={toInput}
        toFormValues={(codelist) => ({
          code: codelist.code,
          name: codelist.name,
          description: codelist.description ?? undefined,
        })}
        rowActions={(codelist) => [
          <Button key="options" type="link" size="small" onClick={() => setManaging(codelist)}>
            {t("catalogue.codelist.options")}
          </Button>,
        ]}
        formFields={(codelist) => (
          <>
            {/* Stories and properties refer to a list by its code: it is fixed once created. */}
            <ProFormText
              name="code"
              label={t("catalogue.codelist.code")}
              disabled={Boolean(codelist)}
              rules={[
                { required: true, whitespace: true, message: t("catalogue.codelist.code.required") },
                { pattern: CODE, message: t("catalogue.codelist.code.invalid") },
              ]}
            />
            <NameField t={t} />
            <DescriptionField t={t} />
          </>
        )}
      />
      <OptionsModal codelist={managing} permission={PERMISSION} onClose={() => setManaging(null)} />
    </>
  );
}
