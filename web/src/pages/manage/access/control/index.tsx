import { EmptyPage } from "../../../../components/empty-page";

export default function ManageAccessControlPage() {
  return <EmptyPage messageKey="empty.manage.access.control" />;
}
