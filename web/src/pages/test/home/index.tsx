import { Typography } from "antd";
import { useTranslation } from "react-i18next";

export default function TestHomePage() {
  const { t } = useTranslation();
  return (
    <div style={{ padding: 24 }}>
      <Typography.Title level={2}>{t("test.home.heading")}</Typography.Title>
      <Typography.Paragraph>{t("test.home.body")}</Typography.Paragraph>
    </div>
  );
}
