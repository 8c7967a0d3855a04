import { type ProColumns, ProFormTreeSelect } from "@ant-design/pro-components";
import { useTranslation } from "react-i18next";
import {
  type Category,
  catalogueKeys,
  categoryCalls,
  mergeCategory,
  useAllCategories,
} from "../../../../api/catalogue";
import { ResourceTable, useRefreshing } from "../../../../components/crud-table/resource-table";
import { DescriptionField, NameField, SortOrderField, updateTimeColumn } from "../catalogue-shared/fields";
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
  const all = useAllCategories();
  // Every write changes the parent picker's tree.
  const refreshing = useRefreshing(catalogueKeys.allCategories());
  const calls = {
    list: categoryCalls.list,
    create: refreshing(categoryCalls.create),
    update: refreshing(categoryCalls.update),
    remove: refreshing(categoryCalls.remove),
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
    <ResourceTable
      permission={PERMISSION}
      titleKey="catalogue.category.title"
      columns={columns}
      calls={calls}
      toInput={toInput}
      merge={mergeChoice(calls.list, refreshing(mergeCategory), (category) =>
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
