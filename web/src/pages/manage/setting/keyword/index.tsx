import type { ProColumns } from "@ant-design/pro-components";
import { useTranslation } from "react-i18next";
import { type Keyword, keywordCalls, mergeKeyword } from "../../../../api/catalogue";
import { ResourceTable } from "../../../../components/crud-table/resource-table";
import { NameField, updateTimeColumn } from "../catalogue-shared/fields";
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
    <ResourceTable
      permission={PERMISSION}
      titleKey="catalogue.keyword.title"
      columns={columns}
      calls={keywordCalls}
      toInput={(values: KeywordForm) => ({ name: trimmed(values.name) })}
      merge={mergeChoice(keywordCalls.list, mergeKeyword)}
      toFormValues={(keyword) => ({ name: keyword.name })}
      formFields={() => <NameField t={t} />}
    />
  );
}
