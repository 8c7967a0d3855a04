import { EmptyPage } from "../../../../components/empty-page";

export default function ManageSettingCodelistPage() {
  return <EmptyPage messageKey="empty.manage.setting.codelist" />;
}
