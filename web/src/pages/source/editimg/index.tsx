import { Typography } from "antd";
import { useTranslation } from "react-i18next";
import { useLocation } from "react-router-dom";
import { EmptyPage } from "../../../components/empty-page";

/** The image editor's route; the header's image-edit upload hands the chosen file name over in the state. */
export default function SourceEditimgPage() {
  const { t } = useTranslation();
  const state = useLocation().state as { fileName?: string } | null;
  return (
    <EmptyPage messageKey="source.editimg.empty">
      {state?.fileName ? (
        <Typography.Text type="secondary">{t("source.editimg.file", { name: state.fileName })}</Typography.Text>
      ) : null}
    </EmptyPage>
  );
}
