import { IdcardOutlined, LockOutlined, UserOutlined } from "@ant-design/icons";
import { Alert, Button, Form, Input, Result, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate, useSearchParams } from "react-router-dom";
import { IdentityError, register } from "../../../api/identity";
import { confirmPasswordRules, newPasswordRules, PASSWORD_MIN } from "../../../components/password-rules";
import { AuthCard } from "../components/auth-card";
import { useRegistrationMode } from "../components/registration-mode";
import { retryWait } from "../components/retry-wait";

interface Registration {
  username: string;
  name: string;
  password: string;
  confirm: string;
}

/** The server's rule for user names (POST /uuas/register). */
export const USERNAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._@-]{1,63}$/;

export default function UserRegisterPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const uid = params.get("uid");
  const [form] = Form.useForm<Registration>();
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const signInLink = uid ? `/user/login?uid=${encodeURIComponent(uid)}` : "/user/login";
  const registration = useRegistrationMode();

  const onFinish = async (values: Registration) => {
    setSubmitting(true);
    setError(null);
    try {
      const user = await register({
        username: values.username.trim(),
        name: values.name.trim(),
        password: values.password,
      });
      const next = new URLSearchParams({ username: user.username });
      if (user.pending) next.set("pending", "1");
      if (uid) next.set("uid", uid);
      navigate(`/user/register-result?${next.toString()}`);
    } catch (failure) {
      setSubmitting(false);
      if (failure instanceof IdentityError && failure.status === 403) {
        setError(t("user.register.closed"));
      } else if (failure instanceof IdentityError && failure.status === 409) {
        form.setFields([{ name: "username", errors: [t("user.register.taken")] }]);
      } else if (failure instanceof IdentityError && failure.status === 429) {
        setError(t("user.register.throttled", { wait: retryWait(failure.retryAfterSeconds, t) }));
      } else if (failure instanceof IdentityError && failure.status === null) {
        setError(t("error.noResponse"));
      } else {
        setError(failure instanceof Error && failure.message ? failure.message : t("error.500"));
      }
    }
  };

  if (registration === "off") {
    return (
      <AuthCard>
        <Result
          status="info"
          title={t("user.register.closedTitle")}
          subTitle={t("user.register.closed")}
          extra={
            <Link to={signInLink}>
              <Button type="primary">{t("user.register.signIn")}</Button>
            </Link>
          }
        />
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title={t("user.register.title")}
      subtitle={t(registration === "open" ? "user.register.subtitleOpen" : "user.register.subtitle")}
    >
      {error ? <Alert type="error" showIcon message={error} style={{ marginBottom: 24 }} /> : null}
      <Form<Registration> form={form} layout="vertical" size="large" requiredMark={false} onFinish={onFinish}>
        <Form.Item
          name="username"
          label={t("user.field.username")}
          extra={t("user.field.username.hint")}
          rules={[
            { required: true, whitespace: true, message: t("user.field.username.required") },
            { pattern: USERNAME_PATTERN, message: t("user.field.username.pattern") },
          ]}
        >
          <Input prefix={<UserOutlined />} autoComplete="username" autoFocus maxLength={64} />
        </Form.Item>
        <Form.Item
          name="name"
          label={t("user.field.name")}
          rules={[
            { required: true, whitespace: true, message: t("user.field.name.required") },
            { max: 100, message: t("user.field.name.max") },
          ]}
        >
          <Input prefix={<IdcardOutlined />} autoComplete="name" maxLength={100} />
        </Form.Item>
        <Form.Item
          name="password"
          label={t("user.field.password")}
          extra={t("user.field.password.hint", { min: PASSWORD_MIN })}
          rules={[...newPasswordRules(t), { max: 1024, message: t("user.field.password.max") }]}
          hasFeedback
        >
          <Input.Password prefix={<LockOutlined />} autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          name="confirm"
          label={t("user.field.confirm")}
          dependencies={["password"]}
          hasFeedback
          rules={confirmPasswordRules(t)}
        >
          <Input.Password prefix={<LockOutlined />} autoComplete="new-password" />
        </Form.Item>
        <Form.Item style={{ marginBottom: 16 }}>
          <Button type="primary" htmlType="submit" block loading={submitting}>
            {t("user.register.submit")}
          </Button>
        </Form.Item>
      </Form>
      <Typography.Paragraph type="secondary" style={{ textAlign: "center", marginBottom: 0 }}>
        {t("user.register.haveAccount")} <Link to={signInLink}>{t("user.register.signIn")}</Link>
      </Typography.Paragraph>
    </AuthCard>
  );
}
