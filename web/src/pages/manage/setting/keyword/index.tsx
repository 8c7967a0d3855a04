import type { ProColumns } from "@ant-design/pro-components";
import { useTranslation } from "react-i18next";
import {
  createKeyword,
  deleteKeyword,
  type Keyword,
  listKeywords,
  mergeKeyword,
  updateKeyword,
} from "../../../../api/catalogue";
import { CrudTable } from "../../../../components/crud-table";
import { crudAccess, NameField, updateTimeColumn } from "../catalogue-shared/fields";
import { trimmed } from "../catalogue-shared/form-values";
import { mergeChoice } from "../catalogue-shared/merge";

const PERMISSION = "manage.setting.keyword";

interface KeywordForm extends Record<string, unknown> {
  name: string;
}

export default function ManageSettingKeywordPage() {
  const { t } = useTranslation();
  const columns: ProColumns<Keyword>[] = [
    { title: t("catalogue.name"), dataIndex: "name" },
    { title: t("catalogue.keyword.useCount"), dataIndex: "useCount", width: 120 },
    updateTimeColumn(t),
  ];
  return (
    <CrudTable<Keyword, KeywordForm>
      rowKey="id"
      headerTitle={t("catalogue.keyword.title")}
      columns={columns}
      list={listKeywords}
      access={crudAccess(PERMISSION)}
      create={(values) => createKeyword({ name: trimmed(values.name) })}
      update={(keyword, values) => updateKeyword(keyword.id, { name: trimmed(values.name) })}
      remove={(keyword) => deleteKeyword(keyword.id)}
      merge={mergeChoice(listKeywords, mergeKeyword)}
      toFormValues={(keyword) => ({ name: keyword.name })}
      formFields={() => <NameField t={t} />}
    />
  );
}
