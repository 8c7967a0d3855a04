import { Checkbox, Empty, Spin, Table, Typography } from "antd";
import { useTranslation } from "react-i18next";
import type { PermissionCatalogueEntry } from "../../../../api/identity-admin";

/** permissionId → the actions the role holds on it. */
export type PermissionMatrixValue = Record<string, string[]>;

/** The matrix as the API takes it: only permissions with at least one action. */
export function matrixToPermissions(
  value: PermissionMatrixValue | undefined,
): { permissionId: string; actions: string[] }[] {
  return Object.entries(value ?? {})
    .filter(([, actions]) => actions.length > 0)
    .map(([permissionId, actions]) => ({ permissionId, actions }));
}

export function permissionsToMatrix(
  permissions: { permissionId: string; actionList: readonly string[] }[],
): PermissionMatrixValue {
  return Object.fromEntries(permissions.map((p) => [p.permissionId, [...p.actionList]]));
}

interface Props {
  catalogue: PermissionCatalogueEntry[] | undefined;
  loading: boolean;
  value?: PermissionMatrixValue;
  onChange?: (value: PermissionMatrixValue) => void;
}

/** Permissions × actions (spec section 6), built from GET /roles/permissions, as one form control. */
export function PermissionMatrix({ catalogue, loading, value = {}, onChange }: Props) {
  const { t } = useTranslation();
  if (loading) return <Spin />;
  if (!catalogue?.length) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />;
  const set = (permissionId: string, actions: string[]) => onChange?.({ ...value, [permissionId]: actions });

  return (
    <Table<PermissionCatalogueEntry>
      size="small"
      rowKey="permissionId"
      pagination={false}
      scroll={{ y: 320 }}
      dataSource={catalogue}
      data-testid="permission-matrix"
      columns={[
        {
          title: t("admin.role.permission"),
          dataIndex: "permissionId",
          width: 170,
          render: (_, entry) => {
            const held = value[entry.permissionId] ?? [];
            const all = entry.actions.map((a) => a.action);
            return (
              <Checkbox
                checked={held.length > 0 && held.length === all.length}
                indeterminate={held.length > 0 && held.length < all.length}
                onChange={(event) => set(entry.permissionId, event.target.checked ? all : [])}
              >
                <Typography.Text strong={held.length > 0}>{t(entry.permissionName)}</Typography.Text>
                <Typography.Text type="secondary" style={{ fontSize: 12, marginLeft: 4 }}>
                  {entry.area === "admin" ? t("admin.role.area.admin") : t("admin.role.area.user")}
                </Typography.Text>
              </Checkbox>
            );
          },
        },
        {
          title: t("admin.role.actions"),
          key: "actions",
          render: (_, entry) => (
            <Checkbox.Group
              value={value[entry.permissionId] ?? []}
              onChange={(actions) => set(entry.permissionId, actions as string[])}
              options={entry.actions.map((a) => ({ value: a.action, label: t(`admin.action.${a.action}`) }))}
            />
          ),
        },
      ]}
    />
  );
}
