import { EmptyPage } from "../../../../components/empty-page";

export default function ManageSettingCataloguePage() {
  return <EmptyPage messageKey="empty.manage.setting.catalogue" />;
}
