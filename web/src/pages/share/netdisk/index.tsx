import { EmptyPage } from "../../../components/empty-page";

export default function ShareNetdiskPage() {
  return <EmptyPage messageKey="empty.share.netdisk" />;
}
