import { Card, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { FetchForm } from "./components/fetch-form";
import { FetchList } from "./components/fetch-list";

/** The download centre: fetch media from URLs into a library (docs/url-ingest.md). */
export default function UploadDownloadPage() {
  const { t } = useTranslation();
  return (
    <div style={{ display: "flex", flexDirection: "column", gap: 16 }}>
      <Card title={t("urlIngest.title")}>
        <Typography.Paragraph type="secondary">{t("urlIngest.hint")}</Typography.Paragraph>
        <FetchForm />
      </Card>
      <Card title={t("urlIngest.list")}>
        <FetchList />
      </Card>
    </div>
  );
}
