import { EmptyPage } from "../../../components/empty-page";

export default function SourceIsmpnetdiskPage() {
  return <EmptyPage messageKey="source.ismpnetdisk.empty" />;
}
