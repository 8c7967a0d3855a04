import { Button, Result } from "antd";
import { useTranslation } from "react-i18next";
import { Link, useSearchParams } from "react-router-dom";
import { AuthCard } from "../components/auth-card";

export default function UserRegisterResultPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const username = params.get("username");
  const pending = params.get("pending") === "1";
  const uid = params.get("uid");
  const signIn = uid ? `/user/login?uid=${encodeURIComponent(uid)}` : "/user/login";
  return (
    <AuthCard>
      <Result
        status={pending ? "info" : "success"}
        title={t(pending ? "user.registerResult.pendingTitle" : "user.registerResult.title")}
        subTitle={
          pending
            ? t("user.registerResult.pending", { username: username ?? "" })
            : username
              ? t("user.registerResult.account", { username })
              : t("user.registerResult.subtitle")
        }
        extra={
          <Link to={signIn}>
            <Button type="primary" size="large">
              {t("user.registerResult.signIn")}
            </Button>
          </Link>
        }
      />
    </AuthCard>
  );
}
