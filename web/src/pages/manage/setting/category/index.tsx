import { EmptyPage } from "../../../../components/empty-page";

export default function ManageSettingCategoryPage() {
  return <EmptyPage messageKey="empty.manage.setting.category" />;
}
