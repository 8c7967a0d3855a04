import { type ProColumns, ProFormText } from "@ant-design/pro-components";
import { Button } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import {
  type Codelist,
  createCodelist,
  deleteCodelist,
  listCodelists,
  updateCodelist,
} from "../../../../api/catalogue";
import { CrudTable } from "../../../../components/crud-table";
import { crudAccess, DescriptionField, NameField, updateTimeColumn } from "../catalogue-shared/fields";
import { textOrNull, trimmed } from "../catalogue-shared/form-values";
import { OptionsModal } from "./options-modal";

const PERMISSION = "manage.setting.codelist";
const CODE = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;

interface CodelistForm extends Record<string, unknown> {
  code: string;
  name: string;
  description?: string;
}

const toInput = (values: CodelistForm) => ({
  code: trimmed(values.code),
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
      <CrudTable<Codelist, CodelistForm>
        rowKey="id"
        headerTitle={t("catalogue.codelist.title")}
        columns={columns}
        list={listCodelists}
        access={crudAccess(PERMISSION)}
        create={(values) => createCodelist(toInput(values))}
        update={(codelist, values) => updateCodelist(codelist.id, toInput({ ...values, code: codelist.code }))}
        remove={(codelist) => deleteCodelist(codelist.id)}
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
