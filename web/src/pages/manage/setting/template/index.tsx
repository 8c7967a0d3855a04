import { EmptyPage } from "../../../../components/empty-page";

export default function ManageSettingTemplatePage() {
  return <EmptyPage messageKey="empty.manage.setting.template" />;
}
