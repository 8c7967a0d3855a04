import { type ProColumns, ProFormTreeSelect } from "@ant-design/pro-components";
import { useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import {
  type Category,
  catalogueKeys,
  createCategory,
  deleteCategory,
  listCategories,
  mergeCategory,
  updateCategory,
  useAllCategories,
} from "../../../../api/catalogue";
import { CrudTable } from "../../../../components/crud-table";
import { crudAccess, DescriptionField, NameField, SortOrderField, updateTimeColumn } from "../catalogue-shared/fields";
import { categoryTree, orderOrZero, textOrNull, trimmed } from "../catalogue-shared/form-values";
import { mergeChoice } from "../catalogue-shared/merge";

const PERMISSION = "manage.setting.category";

interface CategoryForm extends Record<string, unknown> {
  name: string;
  parentId?: string;
  description?: string;
  sortOrder?: number;
}

const toInput = (values: CategoryForm) => ({
  name: trimmed(values.name),
  parentId: values.parentId || null,
  description: textOrNull(values.description),
  sortOrder: orderOrZero(values.sortOrder),
});

export default function ManageSettingCategoryPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const all = useAllCategories();
  // Every write changes the parent picker's tree.
  const refreshing =
    <A extends unknown[], R>(write: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      const result = await write(...args);
      await queryClient.invalidateQueries({ queryKey: catalogueKeys.allCategories() });
      return result;
    };

  const columns: ProColumns<Category>[] = [
    { title: t("catalogue.name"), dataIndex: "name" },
    {
      title: t("catalogue.category.parent"),
      dataIndex: "parentName",
      render: (_, category) => category.parentName ?? "—",
    },
    { title: t("catalogue.category.children"), dataIndex: "childCount", width: 110 },
    { title: t("catalogue.sortOrder"), dataIndex: "sortOrder", width: 90 },
    { title: t("catalogue.description"), dataIndex: "description", ellipsis: true, responsive: ["md"] },
    updateTimeColumn(t),
  ];
  return (
    <CrudTable<Category, CategoryForm>
      rowKey="id"
      headerTitle={t("catalogue.category.title")}
      columns={columns}
      list={listCategories}
      access={crudAccess(PERMISSION)}
      create={refreshing((values: CategoryForm) => createCategory(toInput(values)))}
      update={refreshing((category: Category, values: CategoryForm) => updateCategory(category.id, toInput(values)))}
      remove={refreshing((category: Category) => deleteCategory(category.id))}
      merge={mergeChoice(listCategories, refreshing(mergeCategory), (category) =>
        category.parentName ? `${category.parentName} / ${category.name}` : category.name,
      )}
      toFormValues={(category) => ({
        name: category.name,
        parentId: category.parentId ?? undefined,
        description: category.description ?? undefined,
        sortOrder: category.sortOrder,
      })}
      formFields={(category) => (
        <>
          <NameField t={t} />
          <ProFormTreeSelect
            name="parentId"
            label={t("catalogue.category.parent")}
            placeholder={t("catalogue.category.parent.none")}
            allowClear
            fieldProps={{
              treeData: categoryTree(all.data ?? [], category?.id),
              treeDefaultExpandAll: true,
              loading: all.isPending,
              showSearch: true,
              treeNodeFilterProp: "title",
            }}
          />
          <DescriptionField t={t} />
          <SortOrderField t={t} />
        </>
      )}
    />
  );
}
