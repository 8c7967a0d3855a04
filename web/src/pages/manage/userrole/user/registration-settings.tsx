import { SettingOutlined } from "@ant-design/icons";
import { useQueryClient } from "@tanstack/react-query";
import { Button, Form, Modal, Radio, Select, Space, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import {
  type RegistrationSettings,
  registrationKeys,
  saveRegistration,
  useAllRoles,
  useRegistration,
} from "../../../../api/identity-admin";
import { useFeedback } from "../../../../components/feedback";

type Values = Pick<RegistrationSettings, "mode" | "defaultRoleId">;

/** The users page's "Registration" button: who may register, and whether an administrator approves them first. */
export function RegistrationSettingsButton() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button key="registration" icon={<SettingOutlined />} onClick={() => setOpen(true)}>
        {t("admin.registration.button")}
      </Button>
      {open ? <RegistrationDialog onClose={() => setOpen(false)} /> : null}
    </>
  );
}

function RegistrationDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const queryClient = useQueryClient();
  const settings = useRegistration();
  const roles = useAllRoles();
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);

  const onOk = async () => {
    const values = await form.validateFields();
    setSaving(true);
    try {
      const saved = await saveRegistration(values);
      queryClient.setQueryData(registrationKeys.settings(), saved);
      message.success(t("admin.registration.saved"));
      onClose();
    } catch {
      setSaving(false);
    }
  };

  return (
    <Modal
      open
      title={t("admin.registration.title")}
      onCancel={onClose}
      onOk={onOk}
      confirmLoading={saving}
      okButtonProps={{ disabled: !settings.data }}
      destroyOnHidden
    >
      {settings.data ? (
        <Form<Values>
          form={form}
          layout="vertical"
          initialValues={{ mode: settings.data.mode, defaultRoleId: settings.data.defaultRoleId }}
        >
          <Form.Item name="mode" label={t("admin.registration.mode")} rules={[{ required: true }]}>
            <Radio.Group>
              <Space direction="vertical">
                {(["off", "approval", "open"] as const).map((mode) => (
                  <Radio key={mode} value={mode}>
                    {t(`admin.registration.mode.${mode}`)}
                    <Typography.Text type="secondary" style={{ display: "block", fontSize: 12 }}>
                      {t(`admin.registration.mode.${mode}.hint`)}
                    </Typography.Text>
                  </Radio>
                ))}
              </Space>
            </Radio.Group>
          </Form.Item>
          <Form.Item
            name="defaultRoleId"
            label={t("admin.registration.role")}
            extra={t("admin.registration.role.hint")}
            rules={[{ required: true, message: t("admin.registration.role.required") }]}
          >
            <Select
              loading={roles.isPending}
              options={(roles.data ?? []).map((role) => ({ label: role.name, value: role.id }))}
            />
          </Form.Item>
        </Form>
      ) : null}
    </Modal>
  );
}
