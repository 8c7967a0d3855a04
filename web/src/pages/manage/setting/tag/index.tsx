import { type ProColumns, ProFormText } from "@ant-design/pro-components";
import { Tag as Chip } from "antd";
import { useTranslation } from "react-i18next";
import { createTag, deleteTag, listTags, mergeTag, type Tag, updateTag } from "../../../../api/catalogue";
import { CrudTable } from "../../../../components/crud-table";
import { crudAccess, DescriptionField, NameField, updateTimeColumn } from "../catalogue-shared/fields";
import { textOrNull, trimmed } from "../catalogue-shared/form-values";
import { mergeChoice } from "../catalogue-shared/merge";

/** The route key of this screen: the permissionId its buttons check. */
const PERMISSION = "manage.setting.tag";
const COLOUR = /^(#[0-9a-fA-F]{3,8}|[a-z]{3,20})$/;

interface TagForm extends Record<string, unknown> {
  name: string;
  color?: string;
  description?: string;
}

const toInput = (values: TagForm) => ({
  name: trimmed(values.name),
  color: textOrNull(values.color),
  description: textOrNull(values.description),
});

export default function ManageSettingTagPage() {
  const { t } = useTranslation();
  const columns: ProColumns<Tag>[] = [
    {
      title: t("catalogue.name"),
      dataIndex: "name",
      render: (_, tag) => <Chip color={tag.color ?? undefined}>{tag.name}</Chip>,
    },
    { title: t("catalogue.description"), dataIndex: "description", ellipsis: true },
    updateTimeColumn(t),
  ];
  return (
    <CrudTable<Tag, TagForm>
      rowKey="id"
      headerTitle={t("catalogue.tag.title")}
      columns={columns}
      list={listTags}
      access={crudAccess(PERMISSION)}
      create={(values) => createTag(toInput(values))}
      update={(tag, values) => updateTag(tag.id, toInput(values))}
      remove={(tag) => deleteTag(tag.id)}
      merge={mergeChoice(listTags, mergeTag)}
      toFormValues={(tag) => ({
        name: tag.name,
        color: tag.color ?? undefined,
        description: tag.description ?? undefined,
      })}
      formFields={() => (
        <>
          <NameField t={t} />
          <ProFormText
            name="color"
            label={t("catalogue.tag.color")}
            placeholder="#1890ff"
            rules={[{ pattern: COLOUR, message: t("catalogue.tag.color.invalid") }]}
          />
          <DescriptionField t={t} />
        </>
      )}
    />
  );
}
