import { EmptyPage } from "../../../../components/empty-page";

export default function ManageMonitorStoragePage() {
  return <EmptyPage messageKey="empty.manage.monitor.storage" />;
}
