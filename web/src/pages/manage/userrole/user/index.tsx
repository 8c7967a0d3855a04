import { EmptyPage } from "../../../../components/empty-page";

export default function ManageUserroleUserPage() {
  return <EmptyPage messageKey="empty.manage.userrole.user" />;
}
