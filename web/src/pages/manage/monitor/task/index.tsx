import { EmptyPage } from "../../../../components/empty-page";

export default function ManageMonitorTaskPage() {
  return <EmptyPage messageKey="empty.manage.monitor.task" />;
}
