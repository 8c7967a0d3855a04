import { EmptyPage } from "../../../components/empty-page";

export default function SourceIsmpsourcePage() {
  return <EmptyPage messageKey="source.ismpsource.empty" />;
}
