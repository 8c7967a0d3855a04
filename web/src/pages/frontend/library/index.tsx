import { Typography } from "antd";
import { useTranslation } from "react-i18next";
import { useParams } from "react-router-dom";
import { EmptyPage } from "../../../components/empty-page";

/** Browsing a library, or a folder in it: /frontend/:library/:folderId? */
export default function LibraryPage() {
  const { t } = useTranslation();
  const { library, folderId } = useParams();
  return (
    <>
      <Typography.Title level={4}>{t("library.heading", { library })}</Typography.Title>
      <EmptyPage messageKey={folderId ? "library.folderEmpty" : "library.empty"} />
    </>
  );
}
