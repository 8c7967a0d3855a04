import { EmptyPage } from "../../../../components/empty-page";

export default function ManageMonitorPublishPage() {
  return <EmptyPage messageKey="empty.manage.monitor.publish" />;
}
