import { EmptyPage } from "../../../../components/empty-page";

export default function ManageMonitorDataPage() {
  return <EmptyPage messageKey="empty.manage.monitor.data" />;
}
