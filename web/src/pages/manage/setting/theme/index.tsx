import { EmptyPage } from "../../../../components/empty-page";

export default function ManageSettingThemePage() {
  return <EmptyPage messageKey="empty.manage.setting.theme" />;
}
