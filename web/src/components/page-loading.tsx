import { Spin } from "antd";
import { useTranslation } from "react-i18next";

export function PageLoading() {
  const { t } = useTranslation();
  return (
    <div style={{ padding: 64, textAlign: "center" }}>
      <Spin tip={t("app.loading")} size="large">
        <div style={{ minHeight: 48 }} />
      </Spin>
    </div>
  );
}
