import { EmptyPage } from "../../../../components/empty-page";

export default function ManageUserroleRolePage() {
  return <EmptyPage messageKey="empty.manage.userrole.role" />;
}
