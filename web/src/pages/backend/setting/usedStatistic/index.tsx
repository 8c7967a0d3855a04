import { EmptyPage } from "../../../../components/empty-page";

export default function BackendSettingUsedStatisticPage() {
  return <EmptyPage messageKey="empty.backend.setting.usedStatistic" />;
}
