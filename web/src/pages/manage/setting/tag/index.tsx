import { EmptyPage } from "../../../../components/empty-page";

export default function ManageSettingTagPage() {
  return <EmptyPage messageKey="empty.manage.setting.tag" />;
}
