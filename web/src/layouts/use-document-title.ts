import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { pageTitle } from "./page-title";

export function useDocumentTitle(titleKey: string | undefined): void {
  const { t } = useTranslation();
  const title = pageTitle(titleKey ? t(titleKey) : undefined, t("app.title"));
  useEffect(() => {
    document.title = title;
  }, [title]);
}
