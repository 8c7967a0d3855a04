import { EmptyPage } from "../../../../components/empty-page";

export default function ManageSettingAuthorPage() {
  return <EmptyPage messageKey="empty.manage.setting.author" />;
}
