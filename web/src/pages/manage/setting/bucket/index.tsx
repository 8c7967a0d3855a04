import { EmptyPage } from "../../../../components/empty-page";

export default function ManageSettingBucketPage() {
  return <EmptyPage messageKey="empty.manage.setting.bucket" />;
}
