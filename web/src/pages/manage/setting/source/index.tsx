import type { ProColumns } from "@ant-design/pro-components";
import { useTranslation } from "react-i18next";
import {
  createSource,
  deleteSource,
  listSources,
  mergeSource,
  type Source,
  updateSource,
} from "../../../../api/catalogue";
import { CrudTable } from "../../../../components/crud-table";
import { crudAccess, DescriptionField, NameField, SortOrderField, updateTimeColumn } from "../catalogue-shared/fields";
import { orderOrZero, textOrNull, trimmed } from "../catalogue-shared/form-values";
import { mergeChoice } from "../catalogue-shared/merge";

const PERMISSION = "manage.setting.source";

interface SourceForm extends Record<string, unknown> {
  name: string;
  description?: string;
  sortOrder?: number;
}

const toInput = (values: SourceForm) => ({
  name: trimmed(values.name),
  description: textOrNull(values.description),
  sortOrder: orderOrZero(values.sortOrder),
});

export default function ManageSettingSourcePage() {
  const { t } = useTranslation();
  const columns: ProColumns<Source>[] = [
    { title: t("catalogue.name"), dataIndex: "name" },
    { title: t("catalogue.description"), dataIndex: "description", ellipsis: true },
    { title: t("catalogue.sortOrder"), dataIndex: "sortOrder", width: 90 },
    updateTimeColumn(t),
  ];
  return (
    <CrudTable<Source, SourceForm>
      rowKey="id"
      headerTitle={t("catalogue.source.title")}
      columns={columns}
      list={listSources}
      access={crudAccess(PERMISSION)}
      create={(values) => createSource(toInput(values))}
      update={(source, values) => updateSource(source.id, toInput(values))}
      remove={(source) => deleteSource(source.id)}
      merge={mergeChoice(listSources, mergeSource)}
      toFormValues={(source) => ({
        name: source.name,
        description: source.description ?? undefined,
        sortOrder: source.sortOrder,
      })}
      formFields={() => (
        <>
          <NameField t={t} />
          <DescriptionField t={t} />
          <SortOrderField t={t} />
        </>
      )}
    />
  );
}
