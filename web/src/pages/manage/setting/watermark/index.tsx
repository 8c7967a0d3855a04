import { EmptyPage } from "../../../../components/empty-page";

export default function ManageSettingWatermarkPage() {
  return <EmptyPage messageKey="empty.manage.setting.watermark" />;
}
