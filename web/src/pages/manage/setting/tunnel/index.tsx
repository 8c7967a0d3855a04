import { EmptyPage } from "../../../../components/empty-page";

export default function ManageSettingTunnelPage() {
  return <EmptyPage messageKey="empty.manage.setting.tunnel" />;
}
