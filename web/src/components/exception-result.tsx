import { Button, Result } from "antd";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router-dom";

export type ExceptionStatus = 403 | 404 | 500;

/** The 403/404/500 pages (spec section 8), each with a back-to-home button to /frontend. */
export function ExceptionResult({ status }: { status: ExceptionStatus }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Result
      status={String(status) as "403" | "404" | "500"}
      title={status}
      subTitle={t(`exception.${status}`)}
      extra={
        <Button type="primary" onClick={() => navigate("/frontend")}>
          {t("exception.backHome")}
        </Button>
      }
    />
  );
}
