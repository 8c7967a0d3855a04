import {
  type ProColumns,
  ProFormDependency,
  ProFormRadio,
  ProFormSelect,
  ProFormText,
} from "@ant-design/pro-components";
import { useQuery } from "@tanstack/react-query";
import { Space, Tag } from "antd";
import { useTranslation } from "react-i18next";
import {
  allRoles,
  createGrant,
  deleteGrant,
  type GrantLevel,
  type LibraryGrant,
  listGrants,
  listUsers,
} from "../../../../api/identity-admin";
import { CrudTable } from "../../../../components/crud-table";

const PERMISSION = "manage.access.control";
const LEVELS: GrantLevel[] = ["read", "write", "manage"];
const LEVEL_COLOR: Record<GrantLevel, string> = { read: "blue", write: "green", manage: "volcano" };
/** The server's rule for a grant's library: a library id or `*`. */
const LIBRARY_PATTERN = /^(\*|[A-Za-z0-9][A-Za-z0-9._-]{0,199})$/;

interface GrantForm extends Record<string, unknown> {
  libraryId: string;
  subject: "role" | "user";
  roleId?: string;
  userId?: string;
  level: GrantLevel;
}

export default function ManageAccessControlPage() {
  const { t } = useTranslation();
  const roles = useQuery({ queryKey: ["roles", "all"], queryFn: allRoles });

  const columns: ProColumns<LibraryGrant>[] = [
    {
      title: t("admin.grant.library"),
      dataIndex: "libraryId",
      render: (_, grant) => (grant.libraryId === "*" ? <Tag>{t("admin.grant.everyLibrary")}</Tag> : grant.libraryId),
    },
    {
      title: t("admin.grant.subject"),
      key: "subject",
      render: (_, grant) =>
        grant.roleId ? (
          <Space size={4}>
            <Tag color="purple">{t("admin.grant.subject.role")}</Tag>
            {grant.roleName ?? grant.roleId}
          </Space>
        ) : (
          <Space size={4}>
            <Tag color="cyan">{t("admin.grant.subject.user")}</Tag>
            {grant.username ?? grant.userId}
          </Space>
        ),
    },
    {
      title: t("admin.grant.level"),
      dataIndex: "level",
      render: (_, grant) => <Tag color={LEVEL_COLOR[grant.level]}>{t(`admin.grant.level.${grant.level}`)}</Tag>,
    },
    { title: t("admin.createTime"), dataIndex: "createdAt", valueType: "dateTime" },
  ];

  return (
    <CrudTable<LibraryGrant, GrantForm>
      rowKey="id"
      headerTitle={t("admin.grant.title")}
      columns={columns}
      list={listGrants}
      access={{ add: `${PERMISSION}.add`, delete: `${PERMISSION}.delete` }}
      create={(values) =>
        createGrant({
          libraryId: values.libraryId.trim(),
          level: values.level,
          ...(values.subject === "role" ? { roleId: values.roleId } : { userId: values.userId }),
        })
      }
      remove={(grant) => deleteGrant(grant.id)}
      formFields={() => (
        <>
          <ProFormText
            name="libraryId"
            label={t("admin.grant.library")}
            tooltip={t("admin.grant.library.hint")}
            placeholder="product"
            rules={[
              { required: true, whitespace: true, message: t("admin.grant.library.required") },
              { pattern: LIBRARY_PATTERN, message: t("admin.grant.library.pattern") },
            ]}
          />
          <ProFormRadio.Group
            name="subject"
            label={t("admin.grant.subject")}
            initialValue="role"
            radioType="button"
            options={[
              { label: t("admin.grant.subject.role"), value: "role" },
              { label: t("admin.grant.subject.user"), value: "user" },
            ]}
          />
          <ProFormDependency name={["subject"]}>
            {({ subject }) =>
              subject === "user" ? (
                <ProFormSelect
                  name="userId"
                  label={t("admin.grant.subject.user")}
                  showSearch
                  debounceTime={300}
                  request={async ({ keyWords }) =>
                    (await listUsers({ page: 0, size: 20, keyword: keyWords || undefined })).content.map((user) => ({
                      label: `${user.name} (${user.username})`,
                      value: user.id,
                    }))
                  }
                  rules={[{ required: true, message: t("admin.grant.user.required") }]}
                />
              ) : (
                <ProFormSelect
                  name="roleId"
                  label={t("admin.grant.subject.role")}
                  options={(roles.data ?? []).map((role) => ({ label: role.name, value: role.id }))}
                  fieldProps={{ loading: roles.isPending }}
                  rules={[{ required: true, message: t("admin.grant.role.required") }]}
                />
              )
            }
          </ProFormDependency>
          <ProFormRadio.Group
            name="level"
            label={t("admin.grant.level")}
            initialValue="read"
            options={LEVELS.map((level) => ({ label: t(`admin.grant.level.${level}`), value: level }))}
            extra={t("admin.grant.level.hint")}
          />
        </>
      )}
    />
  );
}
