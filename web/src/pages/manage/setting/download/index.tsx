import { EmptyPage } from "../../../../components/empty-page";

export default function ManageSettingDownloadPage() {
  return <EmptyPage messageKey="empty.manage.setting.download" />;
}
