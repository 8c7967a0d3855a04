import { EmptyPage } from "../../../../components/empty-page";

export default function ManageSettingSourcePage() {
  return <EmptyPage messageKey="empty.manage.setting.source" />;
}
