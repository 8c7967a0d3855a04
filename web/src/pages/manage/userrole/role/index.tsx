import { type ProColumns, ProForm, ProFormSwitch, ProFormText, ProFormTextArea } from "@ant-design/pro-components";
import { Tag, Tooltip } from "antd";
import { useTranslation } from "react-i18next";
import {
  type Role,
  type RoleAction,
  type RoleInput,
  roleCalls,
  usePermissionCatalogue,
} from "../../../../api/identity-admin";
import { dateTimeColumn } from "../../../../components/crud-table/columns";
import { ResourceTable } from "../../../../components/crud-table/resource-table";
import {
  matrixToPermissions,
  PermissionMatrix,
  type PermissionMatrixValue,
  permissionsToMatrix,
} from "./permission-matrix";

const PERMISSION = "manage.userrole.role";

interface RoleForm extends Record<string, unknown> {
  name: string;
  describe?: string;
  enabled?: boolean;
  permissions?: PermissionMatrixValue;
}

function toInput(values: RoleForm): RoleInput {
  return {
    name: values.name.trim(),
    describe: values.describe?.trim() ?? "",
    status: values.enabled === false ? 0 : 1,
    permissions: matrixToPermissions(values.permissions).map((p) => ({ ...p, actions: p.actions as RoleAction[] })),
  };
}

export default function ManageUserroleRolePage() {
  const { t } = useTranslation();
  const catalogue = usePermissionCatalogue();

  const columns: ProColumns<Role>[] = [
    { title: t("admin.role.name"), dataIndex: "name" },
    { title: t("admin.role.describe"), dataIndex: "describe", ellipsis: true },
    {
      title: t("admin.role.permissions"),
      dataIndex: "permissions",
      render: (_, role) => {
        const names = role.permissions.map((p) => t(p.permissionName));
        return (
          <Tooltip title={names.join(t("admin.listSeparator"))}>
            <Tag>{t("admin.role.permissionCount", { count: role.permissions.length })}</Tag>
          </Tooltip>
        );
      },
    },
    {
      title: t("admin.status"),
      dataIndex: "status",
      render: (_, role) =>
        role.status === 1 ? (
          <Tag color="success">{t("admin.status.enabled")}</Tag>
        ) : (
          <Tag>{t("admin.status.disabled")}</Tag>
        ),
    },
    dateTimeColumn(t("admin.createTime"), "createTime"),
  ];

  return (
    <ResourceTable
      permission={PERMISSION}
      titleKey="admin.role.title"
      columns={columns}
      calls={roleCalls}
      toInput={toInput}
      toFormValues={(role) => ({
        name: role.name,
        describe: role.describe,
        enabled: role.status === 1,
        permissions: permissionsToMatrix(role.permissions),
      })}
      formFields={() => (
        <>
          <ProFormText
            name="name"
            label={t("admin.role.name")}
            rules={[
              { required: true, whitespace: true, message: t("admin.role.name.required") },
              { max: 100, message: t("admin.role.name.max") },
            ]}
          />
          <ProFormTextArea
            name="describe"
            label={t("admin.role.describe")}
            fieldProps={{ rows: 2, maxLength: 500, showCount: true }}
          />
          <ProFormSwitch name="enabled" label={t("admin.status.enabled")} initialValue={true} />
          <ProForm.Item name="permissions" label={t("admin.role.permissions")} initialValue={{}}>
            <PermissionMatrix catalogue={catalogue.data} loading={catalogue.isPending} />
          </ProForm.Item>
        </>
      )}
    />
  );
}
