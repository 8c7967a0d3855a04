import { type ProColumns, ProFormDependency, ProFormRadio, ProFormSelect } from "@ant-design/pro-components";
import { Space, Tag } from "antd";
import { useTranslation } from "react-i18next";
import {
  createGrant,
  deleteGrant,
  type GrantLevel,
  type LibraryGrant,
  listGrants,
  listUsers,
  useAllRoles,
} from "../../../../api/identity-admin";
import { libraryName, useLibraries } from "../../../../api/libraries";
import { CrudTable } from "../../../../components/crud-table";

const PERMISSION = "manage.access.control";
const LEVELS: GrantLevel[] = ["read", "write", "manage"];
const LEVEL_COLOR: Record<GrantLevel, string> = { read: "blue", write: "green", manage: "volcano" };

interface GrantForm extends Record<string, unknown> {
  libraryId: string;
  subject: "role" | "user";
  roleId?: string;
  userId?: string;
  level: GrantLevel;
}

export default function ManageAccessControlPage() {
  const { t } = useTranslation();
  const roles = useAllRoles();
  // A grant names a library that exists (the server refuses others), or every library.
  const libraries = useLibraries();

  const columns: ProColumns<LibraryGrant>[] = [
    {
      title: t("admin.grant.library"),
      dataIndex: "libraryId",
      render: (_, grant) =>
        grant.libraryId === "*" ? (
          <Tag>{t("admin.grant.everyLibrary")}</Tag>
        ) : (
          libraryName(libraries.data, grant.libraryId)
        ),
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
          libraryId: values.libraryId,
          level: values.level,
          ...(values.subject === "role" ? { roleId: values.roleId } : { userId: values.userId }),
        })
      }
      remove={(grant) => deleteGrant(grant.id)}
      formFields={() => (
        <>
          <ProFormSelect
            name="libraryId"
            label={t("admin.grant.library")}
            tooltip={t("admin.grant.library.hint")}
            showSearch
            options={[
              { label: t("admin.grant.everyLibrary"), value: "*" },
              ...(libraries.data ?? []).map((library) => ({
                label: `${library.name} (${library.id})`,
                value: library.id,
              })),
            ]}
            fieldProps={{ loading: libraries.isPending }}
            rules={[{ required: true, message: t("admin.grant.library.required") }]}
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
