import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Button, Card, Input, Select, Space, Switch, Table, Tag, Typography } from "antd";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { listProperties } from "../../../../api/catalogue";
import { propertyAccessKeys, savePropertyRules, useAllRoles, usePropertyRules } from "../../../../api/identity-admin";
import { useAccess } from "../../../../auth/access-component";
import { useFeedback } from "../../../../components/feedback";
import { type PropertyRow, rowsOf, rulesOf, withAccess } from "./rules";

const PERMISSION = "manage.userrole.property";

/** Field-level access (/manage/userrole/property): per role, which story properties are visible and editable. */
export default function ManageUserrolePropertyPage() {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const allowed = useAccess();
  const queryClient = useQueryClient();
  const roles = useAllRoles();
  const [roleId, setRoleId] = useState<string>();
  const rules = usePropertyRules(roleId);
  const defined = useQuery({
    queryKey: ["properties", "every"],
    queryFn: async () => (await listProperties({ page: 0, size: 1000 })).content,
  });
  const [rows, setRows] = useState<PropertyRow[]>([]);
  const [added, setAdded] = useState("");
  const [saving, setSaving] = useState(false);
  const canEdit = allowed(`${PERMISSION}.edit`);

  useEffect(() => {
    if (roleId === undefined && roles.data?.length) setRoleId(roles.data[0]!.id);
  }, [roleId, roles.data]);
  const loaded = useMemo(() => rowsOf(defined.data ?? [], rules.data ?? []), [defined.data, rules.data]);
  useEffect(() => setRows(loaded), [loaded]);
  const changed = JSON.stringify(rulesOf(rows)) !== JSON.stringify(rulesOf(loaded));

  const change = (property: string, access: { visible?: boolean; editable?: boolean }) =>
    setRows((current) => current.map((row) => (row.property === property ? withAccess(row, access) : row)));

  async function save() {
    if (!roleId) return;
    setSaving(true);
    try {
      await savePropertyRules(roleId, rulesOf(rows));
      await queryClient.invalidateQueries({ queryKey: propertyAccessKeys.rules(roleId) });
      message.success(t("admin.propertyAccess.saved"));
    } catch {
      // The client reported the failure.
    } finally {
      setSaving(false);
    }
  }

  function addProperty() {
    const name = added.trim();
    if (!name || rows.some((row) => row.property === name)) return;
    setRows((current) => [...current, { property: name, labels: [], visible: true, editable: true }]);
    setAdded("");
  }

  return (
    <Card
      size="small"
      title={t("admin.propertyAccess.title")}
      extra={
        <Space wrap>
          <Select
            style={{ minWidth: 160 }}
            value={roleId}
            loading={roles.isLoading}
            onChange={setRoleId}
            showSearch
            optionFilterProp="label"
            options={(roles.data ?? []).map((role) => ({ value: role.id, label: role.name }))}
            aria-label={t("admin.propertyAccess.role")}
            data-testid="property-role"
          />
          {canEdit ? (
            <Button type="primary" onClick={save} loading={saving} disabled={!changed} data-testid="property-save">
              {t("admin.propertyAccess.save")}
            </Button>
          ) : null}
        </Space>
      }
    >
      <Space direction="vertical" style={{ width: "100%" }} size={12}>
        <Typography.Text type="secondary">{t("admin.propertyAccess.hint")}</Typography.Text>
        {rules.isError || defined.isError ? (
          <Alert type="error" message={t("admin.propertyAccess.loadFailed")} />
        ) : null}
        <Table<PropertyRow>
          rowKey="property"
          size="small"
          loading={rules.isFetching || defined.isLoading}
          dataSource={rows}
          pagination={false}
          scroll={{ x: "max-content" }}
          locale={{ emptyText: t("admin.propertyAccess.none") }}
          data-testid="property-table"
          columns={[
            {
              key: "property",
              title: t("admin.propertyAccess.property"),
              render: (_, row) => (
                <Space wrap size={4}>
                  <Typography.Text code>{row.property}</Typography.Text>
                  {row.labels.map((label) => (
                    <Tag key={label}>{label}</Tag>
                  ))}
                </Space>
              ),
            },
            {
              key: "visible",
              title: t("admin.propertyAccess.visible"),
              render: (_, row) => (
                <Switch
                  checked={row.visible}
                  disabled={!canEdit}
                  onChange={(visible) => change(row.property, { visible })}
                  aria-label={`${row.property} ${t("admin.propertyAccess.visible")}`}
                  data-testid={`property-visible-${row.property}`}
                />
              ),
            },
            {
              key: "editable",
              title: t("admin.propertyAccess.editable"),
              render: (_, row) => (
                <Switch
                  checked={row.editable}
                  disabled={!canEdit}
                  onChange={(editable) => change(row.property, { editable })}
                  aria-label={`${row.property} ${t("admin.propertyAccess.editable")}`}
                  data-testid={`property-editable-${row.property}`}
                />
              ),
            },
          ]}
        />
        {canEdit ? (
          <Space.Compact style={{ maxWidth: 420, width: "100%" }}>
            <Input
              value={added}
              maxLength={100}
              onChange={(event) => setAdded(event.target.value)}
              onPressEnter={addProperty}
              placeholder={t("admin.propertyAccess.addPlaceholder")}
              data-testid="property-add-name"
            />
            <Button onClick={addProperty} data-testid="property-add">
              {t("admin.propertyAccess.add")}
            </Button>
          </Space.Compact>
        ) : null}
      </Space>
    </Card>
  );
}
