import { type ProColumns, ProFormText } from "@ant-design/pro-components";
import { useTranslation } from "react-i18next";
import { type Author, authorCalls, mergeAuthor } from "../../../../api/catalogue";
import { ResourceTable } from "../../../../components/crud-table/resource-table";
import { DescriptionField, NameField, updateTimeColumn } from "../catalogue-shared/fields";
import { textOrNull, trimmed } from "../catalogue-shared/form-values";
import { mergeChoice } from "../catalogue-shared/merge";

const PERMISSION = "manage.setting.author";
const PHONE = /^[0-9+\-() ]{0,32}$/;

interface AuthorForm extends Record<string, unknown> {
  name: string;
  penName?: string;
  department?: string;
  phone?: string;
  email?: string;
  description?: string;
}

const toInput = (values: AuthorForm) => ({
  name: trimmed(values.name),
  penName: textOrNull(values.penName),
  department: textOrNull(values.department),
  phone: textOrNull(values.phone),
  email: textOrNull(values.email),
  description: textOrNull(values.description),
});

export default function ManageSettingAuthorPage() {
  const { t } = useTranslation();
  const columns: ProColumns<Author>[] = [
    { title: t("catalogue.name"), dataIndex: "name" },
    { title: t("catalogue.author.penName"), dataIndex: "penName" },
    { title: t("catalogue.author.department"), dataIndex: "department" },
    { title: t("catalogue.author.phone"), dataIndex: "phone", responsive: ["md"] },
    { title: t("catalogue.author.email"), dataIndex: "email", responsive: ["md"] },
    updateTimeColumn(t),
  ];
  return (
    <ResourceTable
      permission={PERMISSION}
      titleKey="catalogue.author.title"
      columns={columns}
      calls={authorCalls}
      toInput={toInput}
      merge={mergeChoice(authorCalls.list, mergeAuthor, (author) =>
        author.department ? `${author.name}（${author.department}）` : author.name,
      )}
      toFormValues={(author) => ({
        name: author.name,
        penName: author.penName ?? undefined,
        department: author.department ?? undefined,
        phone: author.phone ?? undefined,
        email: author.email ?? undefined,
        description: author.description ?? undefined,
      })}
      formFields={() => (
        <>
          <NameField t={t} />
          <ProFormText
            name="penName"
            label={t("catalogue.author.penName")}
            rules={[{ max: 100, message: t("catalogue.max", { max: 100 }) }]}
          />
          <ProFormText
            name="department"
            label={t("catalogue.author.department")}
            rules={[{ max: 100, message: t("catalogue.max", { max: 100 }) }]}
          />
          <ProFormText
            name="phone"
            label={t("catalogue.author.phone")}
            rules={[{ pattern: PHONE, message: t("catalogue.author.phone.invalid") }]}
          />
          <ProFormText
            name="email"
            label={t("catalogue.author.email")}
            rules={[{ type: "email", message: t("catalogue.author.email.invalid") }]}
          />
          <DescriptionField t={t} />
        </>
      )}
    />
  );
}
