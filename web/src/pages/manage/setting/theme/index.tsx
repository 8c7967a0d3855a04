import type { ProColumns } from "@ant-design/pro-components";
import { useTranslation } from "react-i18next";
import { createTheme, deleteTheme, listThemes, mergeTheme, type Theme, updateTheme } from "../../../../api/catalogue";
import { CrudTable } from "../../../../components/crud-table";
import { crudAccess, DescriptionField, NameField, SortOrderField, updateTimeColumn } from "../catalogue-shared/fields";
import { orderOrZero, textOrNull, trimmed } from "../catalogue-shared/form-values";
import { mergeChoice } from "../catalogue-shared/merge";

const PERMISSION = "manage.setting.theme";

interface ThemeForm extends Record<string, unknown> {
  name: string;
  description?: string;
  sortOrder?: number;
}

const toInput = (values: ThemeForm) => ({
  name: trimmed(values.name),
  description: textOrNull(values.description),
  sortOrder: orderOrZero(values.sortOrder),
});

export default function ManageSettingThemePage() {
  const { t } = useTranslation();
  const columns: ProColumns<Theme>[] = [
    { title: t("catalogue.name"), dataIndex: "name" },
    { title: t("catalogue.description"), dataIndex: "description", ellipsis: true },
    { title: t("catalogue.sortOrder"), dataIndex: "sortOrder", width: 90 },
    updateTimeColumn(t),
  ];
  return (
    <CrudTable<Theme, ThemeForm>
      rowKey="id"
      headerTitle={t("catalogue.theme.title")}
      columns={columns}
      list={listThemes}
      access={crudAccess(PERMISSION)}
      create={(values) => createTheme(toInput(values))}
      update={(theme, values) => updateTheme(theme.id, toInput(values))}
      remove={(theme) => deleteTheme(theme.id)}
      merge={mergeChoice(listThemes, mergeTheme)}
      toFormValues={(theme) => ({
        name: theme.name,
        description: theme.description ?? undefined,
        sortOrder: theme.sortOrder,
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
