import { type ProColumns, ProFormText } from "@ant-design/pro-components";
import { Tag as Chip } from "antd";
import { useTranslation } from "react-i18next";
import { mergeTag, type Tag, tagCalls } from "../../../../api/catalogue";
import { ResourceTable } from "../../../../components/crud-table/resource-table";
import { DescriptionField, NameField, updateTimeColumn } from "../catalogue-shared/fields";
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
    <ResourceTable
      permission={PERMISSION}
      titleKey="catalogue.tag.title"
      columns={columns}
      calls={tagCalls}
      toInput={toInput}
      merge={mergeChoice(tagCalls.list, mergeTag)}
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
