import { EmptyPage } from "../../../../components/empty-page";

export default function ManageSettingLibraryPage() {
  return <EmptyPage messageKey="empty.manage.setting.library" />;
}
