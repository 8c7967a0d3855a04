import { EmptyPage } from "../../../../components/empty-page";

export default function ManageStorageSettingPage() {
  return <EmptyPage messageKey="empty.manage.storage.setting" />;
}
