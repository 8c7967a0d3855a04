import { EmptyPage } from "../../../../components/empty-page";

export default function ManageUserrolePropertyPage() {
  return <EmptyPage messageKey="empty.manage.userrole.property" />;
}
