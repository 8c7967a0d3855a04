import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { pageTitle } from "./page-title";

/** Sets document.title to '{route title} - {platform title}' and returns it. */
export function useDocumentTitle(titleKey: string | undefined): string {
  const { t } = useTranslation();
  const title = pageTitle(titleKey ? t(titleKey) : undefined, t("app.title"));
  useEffect(() => {
    document.title = title;
  }, [title]);
  return title;
}
