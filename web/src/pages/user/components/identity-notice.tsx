import { useQuery } from "@tanstack/react-query";
import { Button, Card, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router-dom";
import { fetchSystemInfo } from "../../../api/client";

/**
 * The body of the sign-in pages until the identity service arrives: the
 * product name and what to expect. The identity issue replaces these pages.
 */
export function IdentityNotice({ headingKey }: { headingKey: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const info = useQuery({ queryKey: ["system-info"], queryFn: () => fetchSystemInfo({ silent: true }) });
  const name = t("app.title");
  return (
    <Card style={{ maxWidth: 420, margin: "0 auto" }}>
      <Typography.Title level={3}>{t(headingKey, { name })}</Typography.Title>
      <Typography.Paragraph type="secondary">{t("app.description")}</Typography.Paragraph>
      <Typography.Paragraph>{t("user.identityNote")}</Typography.Paragraph>
      {info.data ? (
        <Typography.Paragraph type="secondary">
          {info.data.name} {info.data.version}
        </Typography.Paragraph>
      ) : null}
      <Button type="primary" block onClick={() => navigate("/frontend")}>
        {t("user.toHome")}
      </Button>
    </Card>
  );
}
