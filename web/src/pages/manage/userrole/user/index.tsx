import { type ProColumns, ProFormSelect, ProFormSwitch, ProFormText } from "@ant-design/pro-components";
import { Button, Form, Input, Modal, Popconfirm, Tag } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import {
  createUser,
  listUsers,
  resetPassword,
  setUserEnabled,
  type UserAccount,
  updateUser,
  useAllRoles,
} from "../../../../api/identity-admin";
import { Access } from "../../../../auth/access-component";
import { useCurrentUser } from "../../../../auth/session-context";
import { CrudTable, EDIT_MODAL_WIDTH, showRefusal } from "../../../../components/crud-table";
import { dateTimeColumn } from "../../../../components/crud-table/columns";
import { useFeedback } from "../../../../components/feedback";
import { confirmPasswordRules, newPasswordRules } from "../../../../components/password-rules";
import { RegistrationSettingsButton } from "./registration-settings";

/** The route key of this screen: the permissionId its buttons check (spec section 6). */
const PERMISSION = "manage.userrole.user";

interface UserForm extends Record<string, unknown> {
  username: string;
  name?: string;
  password?: string;
  roleId?: string;
  admin?: boolean;
}

function PasswordReset({ user, onClose }: { user: UserAccount | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const [form] = Form.useForm<{ password: string; confirm: string }>();
  const [saving, setSaving] = useState(false);
  return (
    <Modal
      title={t("admin.user.resetPassword.title", { username: user?.username ?? "" })}
      open={user !== null}
      width={EDIT_MODAL_WIDTH}
      okText={t("crud.ok")}
      cancelText={t("crud.cancel")}
      confirmLoading={saving}
      destroyOnHidden
      onCancel={onClose}
      onOk={() => form.submit()}
    >
      <Form
        form={form}
        layout="vertical"
        preserve={false}
        onFinish={async ({ password }) => {
          if (!user) return;
          setSaving(true);
          try {
            await resetPassword(user.id, password);
            message.success(t("crud.saved"));
            onClose();
          } catch (error) {
            showRefusal(error, (text) => message.error(text));
          } finally {
            setSaving(false);
          }
        }}
      >
        <Form.Item name="password" label={t("admin.user.newPassword")} rules={newPasswordRules(t)}>
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          name="confirm"
          label={t("user.field.confirm")}
          dependencies={["password"]}
          rules={confirmPasswordRules(t)}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

export default function ManageUserroleUserPage() {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const me = useCurrentUser();
  const roles = useAllRoles();
  const [resetting, setResetting] = useState<UserAccount | null>(null);
  const roleOptions = (roles.data ?? []).map((role) => ({ label: role.name, value: role.id }));

  const columns: ProColumns<UserAccount>[] = [
    { title: t("admin.user.username"), dataIndex: "username" },
    { title: t("admin.user.name"), dataIndex: "name" },
    { title: t("admin.user.role"), dataIndex: "roleName", render: (_, user) => user.roleName ?? "—" },
    {
      title: t("admin.user.admin"),
      dataIndex: "admin",
      render: (_, user) => (user.admin ? <Tag color="gold">{t("admin.user.admin.yes")}</Tag> : "—"),
    },
    {
      title: t("admin.status"),
      dataIndex: "status",
      render: (_, user) =>
        user.status === 1 ? (
          <Tag color="success">{t("admin.status.enabled")}</Tag>
        ) : (
          <Tag color="default">{t("admin.status.disabled")}</Tag>
        ),
    },
    { title: t("admin.user.lastAccess"), dataIndex: "lastAccessTime", valueType: "dateTime" },
    dateTimeColumn(t("admin.createTime"), "createTime"),
  ];

  return (
    <>
      <CrudTable<UserAccount, UserForm>
        toolbarExtra={[
          <Access key="registration" action={`${PERMISSION}.update`}>
            <RegistrationSettingsButton />
          </Access>,
        ]}
        rowKey="id"
        headerTitle={t("admin.user.title")}
        columns={columns}
        list={listUsers}
        access={{ add: `${PERMISSION}.add`, edit: `${PERMISSION}.edit` }}
        create={(values) =>
          createUser({
            username: values.username.trim(),
            name: values.name?.trim() || undefined,
            password: values.password ?? "",
            roleId: values.roleId,
            admin: values.admin ?? false,
          })
        }
        update={(user, values) =>
          updateUser(user.id, {
            name: values.name?.trim() || undefined,
            roleId: values.roleId,
            // Only an administrator changes the admin flag; the server refuses it from anyone else.
            ...(me?.admin ? { admin: values.admin ?? false } : {}),
          })
        }
        toFormValues={(user) => ({
          username: user.username,
          name: user.name,
          roleId: user.roleId ?? undefined,
          admin: user.admin,
        })}
        rowActions={(user, reload) => {
          const enabled = user.status === 1;
          return [
            <Access key="toggle" action={`${PERMISSION}.${enabled ? "disable" : "enable"}`}>
              <Popconfirm
                title={t(enabled ? "admin.user.disableConfirm" : "admin.user.enableConfirm", {
                  username: user.username,
                })}
                okText={t("crud.ok")}
                cancelText={t("crud.cancel")}
                onConfirm={async () => {
                  try {
                    await setUserEnabled(user.id, !enabled);
                  } catch (error) {
                    showRefusal(error, (text) => message.error(text));
                    return;
                  }
                  message.success(t("crud.saved"));
                  await reload();
                }}
              >
                <Button type="link" size="small" danger={enabled}>
                  {t(enabled ? "admin.user.disable" : "admin.user.enable")}
                </Button>
              </Popconfirm>
            </Access>,
            <Access key="password" action={`${PERMISSION}.update`}>
              <Button type="link" size="small" onClick={() => setResetting(user)}>
                {t("admin.user.resetPassword")}
              </Button>
            </Access>,
          ];
        }}
        formFields={(user) => (
          <>
            <ProFormText
              name="username"
              label={t("admin.user.username")}
              disabled={Boolean(user)}
              rules={[
                { required: true, whitespace: true, message: t("user.field.username.required") },
                { min: 2, max: 64, message: t("admin.user.username.length") },
              ]}
            />
            <ProFormText
              name="name"
              label={t("admin.user.name")}
              rules={[{ max: 100, message: t("user.field.name.max") }]}
            />
            {user ? null : (
              <ProFormText.Password
                name="password"
                label={t("user.field.password")}
                fieldProps={{ autoComplete: "new-password" }}
                rules={newPasswordRules(t)}
              />
            )}
            <ProFormSelect
              name="roleId"
              label={t("admin.user.role")}
              options={roleOptions}
              placeholder={t("admin.user.role.default")}
              fieldProps={{ loading: roles.isPending, allowClear: !user }}
            />
            {me?.admin ? (
              <ProFormSwitch name="admin" label={t("admin.user.admin")} tooltip={t("admin.user.admin.hint")} />
            ) : null}
          </>
        )}
      />
      <PasswordReset user={resetting} onClose={() => setResetting(null)} />
    </>
  );
}
