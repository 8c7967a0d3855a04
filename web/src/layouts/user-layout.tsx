import { Typography } from "antd";
import { Suspense } from "react";
import { useTranslation } from "react-i18next";
import { Outlet } from "react-router-dom";
import { PageLoading } from "../components/page-loading";
import { LanguageSwitch } from "./components/language-switch";
import { useDocumentTitle } from "./use-document-title";

/** The frame of /user/login, /user/register and /user/register-result. */
export function UserLayout({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  useDocumentTitle(titleKey);
  return (
    <main style={{ minHeight: "100vh", background: "#f0f2f5", padding: "64px 16px" }}>
      <div style={{ position: "absolute", top: 16, right: 16 }}>
        <LanguageSwitch />
      </div>
      <div style={{ textAlign: "center", marginBottom: 32 }}>
        <Typography.Title level={2} style={{ marginBottom: 4 }}>
          {t("app.title")}
        </Typography.Title>
        <Typography.Text type="secondary">{t("app.description")}</Typography.Text>
      </div>
      <Suspense fallback={<PageLoading />}>
        <Outlet />
      </Suspense>
    </main>
  );
}
