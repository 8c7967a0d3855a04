import { EmptyPage } from "../../../../components/empty-page";

export default function ManageSettingActionPage() {
  return <EmptyPage messageKey="empty.manage.setting.action" />;
}
