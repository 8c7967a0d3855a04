import { LockOutlined, UserOutlined } from "@ant-design/icons";
import { Alert, Button, Form, Input, Result, Spin, Typography } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, Navigate, useNavigate, useSearchParams } from "react-router-dom";
import { fetchInteraction, IdentityError, type SignInInteraction, submitLogin } from "../../../api/identity";
import { hasSession, storeTokens } from "../../../api/session";
import { completeSignIn, safeReturnTo, startSignIn } from "../../../api/sign-in";
import { PageLoading } from "../../../components/page-loading";
import { AuthCard } from "../components/auth-card";
import { useRegistrationMode } from "../components/registration-mode";
import { retryWait } from "../components/retry-wait";

interface Credentials {
  username: string;
  password: string;
}

/** The provider's interaction page: the credentials form of a pending sign-in (`?uid=`). */
function LoginForm({ uid }: { uid: string }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Credentials>();
  const registration = useRegistrationMode();
  const [interaction, setInteraction] = useState<SignInInteraction | null>(null);
  const [expired, setExpired] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    fetchInteraction(uid)
      .then((found) => {
        if (!live) return;
        setInteraction(found);
        if (found.loginHint) form.setFieldValue("username", found.loginHint);
      })
      .catch(() => live && setExpired(true));
    return () => {
      live = false;
    };
  }, [uid, form]);

  if (expired) {
    return (
      <AuthCard>
        <Result
          status="warning"
          title={t("user.login.expired")}
          subTitle={t("user.login.expiredHint")}
          extra={
            <Button type="primary" onClick={() => void startSignIn("/frontend/search")}>
              {t("user.login.again")}
            </Button>
          }
        />
      </AuthCard>
    );
  }
  if (!interaction) {
    return (
      <AuthCard>
        <div style={{ textAlign: "center", padding: 48 }}>
          <Spin />
        </div>
      </AuthCard>
    );
  }

  const onFinish = async (values: Credentials) => {
    setSubmitting(true);
    setError(null);
    try {
      const { redirectTo } = await submitLogin(uid, { username: values.username.trim(), password: values.password });
      window.location.assign(redirectTo);
    } catch (failure) {
      setSubmitting(false);
      if (failure instanceof IdentityError && failure.status === 400 && failure.code === "invalid_credentials") {
        setError(t("user.login.invalidCredentials"));
        form.setFieldValue("password", "");
      } else if (failure instanceof IdentityError && failure.status === 429) {
        setError(t("user.login.throttled", { wait: retryWait(failure.retryAfterSeconds, t) }));
      } else if (failure instanceof IdentityError && failure.status === null) {
        setError(t("error.noResponse"));
      } else {
        setError(failure instanceof Error && failure.message ? failure.message : t("error.500"));
      }
    }
  };

  return (
    <AuthCard title={t("user.login.title")} subtitle={t("user.login.subtitle", { client: interaction.clientName })}>
      {error ? (
        <Alert type="error" showIcon message={error} style={{ marginBottom: 24 }} data-testid="login-error" />
      ) : null}
      <Form<Credentials> form={form} layout="vertical" size="large" requiredMark={false} onFinish={onFinish}>
        <Form.Item
          name="username"
          label={t("user.field.username")}
          rules={[{ required: true, whitespace: true, message: t("user.field.username.required") }]}
        >
          <Input prefix={<UserOutlined />} autoComplete="username" autoFocus placeholder={t("user.field.username")} />
        </Form.Item>
        <Form.Item
          name="password"
          label={t("user.field.password")}
          rules={[{ required: true, message: t("user.field.password.required") }]}
        >
          <Input.Password
            prefix={<LockOutlined />}
            autoComplete="current-password"
            placeholder={t("user.field.password")}
          />
        </Form.Item>
        <Form.Item style={{ marginBottom: 16 }}>
          <Button type="primary" htmlType="submit" block loading={submitting}>
            {t("user.login.submit")}
          </Button>
        </Form.Item>
      </Form>
      {registration === "off" ? null : (
        <Typography.Paragraph type="secondary" style={{ textAlign: "center", marginBottom: 0 }}>
          {t("user.login.noAccount")}{" "}
          <Link to={`/user/register?uid=${encodeURIComponent(uid)}`}>{t("user.login.register")}</Link>
        </Typography.Paragraph>
      )}
    </AuthCard>
  );
}

/** The way back from the sign-in server (`?code=&state=`, or `?error=`): code exchange, then the intended page. */
function Callback({ params }: { params: URLSearchParams }) {
  const navigate = useNavigate();
  useEffect(() => {
    completeSignIn(params, { storeTokens: (tokens) => storeTokens(tokens) })
      // A full load, so the menus and the user are fetched with the new session.
      .then((returnTo) => window.location.replace(returnTo))
      .catch(() => navigate("/403", { replace: true }));
  }, [params, navigate]);
  return <PageLoading />;
}

/** `/user/login` on its own: starts a sign-in (or, signed in already, goes home). */
function StartSignIn({ returnTo }: { returnTo: string }) {
  const { t } = useTranslation();
  const [failed, setFailed] = useState(false);
  const signedIn = hasSession();
  useEffect(() => {
    if (!signedIn) startSignIn(returnTo).catch(() => setFailed(true));
  }, [signedIn, returnTo]);
  if (signedIn) return <Navigate to={returnTo} replace />;
  if (failed) {
    return (
      <AuthCard>
        <Result status="500" title={t("user.signIn.unavailable")} subTitle={t("error.noResponse")} />
      </AuthCard>
    );
  }
  return <PageLoading />;
}

export default function UserLoginPage() {
  const [params] = useSearchParams();
  const uid = params.get("uid");
  if (uid) return <LoginForm uid={uid} />;
  if (params.has("code") || params.has("error")) return <Callback params={params} />;
  return <StartSignIn returnTo={safeReturnTo(params.get("redirect"))} />;
}
