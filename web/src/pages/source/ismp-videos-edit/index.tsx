import { EmptyPage } from "../../../components/empty-page";

export default function SourceVideosEditPage() {
  return <EmptyPage messageKey="source.ismpVideosEdit.empty" />;
}
