import { LockOutlined } from "@ant-design/icons";
import { Alert, Button, Form, Input, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError } from "../../../../api/http";
import { unlockShare } from "../../../../api/shares";

/** The share's password; the same message for every wrong try, another once tries are throttled. */
export function PasswordForm({
  token,
  title,
  onUnlocked,
}: {
  token: string;
  title: string;
  onUnlocked: (session: string) => void;
}) {
  const { t } = useTranslation();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async ({ password }: { password: string }) => {
    setBusy(true);
    setError(null);
    try {
      onUnlocked((await unlockShare(token, password)).session);
    } catch (failure) {
      setError(
        failure instanceof ApiError && failure.status === 429
          ? t("share.visitor.throttled")
          : failure instanceof ApiError && failure.status === 401
            ? t("share.visitor.wrongPassword")
            : t("share.visitor.failed"),
      );
    } finally {
      setBusy(false);
    }
  };
  return (
    <section style={{ maxWidth: 360, margin: "32px auto", textAlign: "center" }} data-testid="visitor-password">
      <LockOutlined style={{ fontSize: 32, color: "#1890ff" }} />
      <Typography.Title level={4}>{title || t("share.visitor.passwordTitle")}</Typography.Title>
      <Typography.Paragraph type="secondary">{t("share.visitor.passwordPrompt")}</Typography.Paragraph>
      <Form onFinish={submit} layout="vertical">
        <Form.Item name="password" rules={[{ required: true, message: t("share.visitor.passwordPrompt") }]}>
          <Input.Password
            size="large"
            autoFocus
            autoComplete="off"
            placeholder={t("share.visitor.passwordPlaceholder")}
            data-testid="visitor-password-input"
          />
        </Form.Item>
        {error ? (
          <Alert type="error" message={error} style={{ marginBottom: 12 }} data-testid="visitor-password-error" />
        ) : null}
        <Button type="primary" htmlType="submit" size="large" block loading={busy} data-testid="visitor-unlock">
          {t("share.visitor.open")}
        </Button>
      </Form>
    </section>
  );
}
