import { EmptyPage } from "../../../../components/empty-page";

export default function ManageSettingLogPage() {
  return <EmptyPage messageKey="empty.manage.setting.log" />;
}
