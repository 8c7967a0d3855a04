import { EmptyPage } from "../../../../components/empty-page";

export default function ManageSettingKeywordPage() {
  return <EmptyPage messageKey="empty.manage.setting.keyword" />;
}
