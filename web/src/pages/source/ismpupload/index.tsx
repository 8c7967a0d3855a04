import { EmptyPage } from "../../../components/empty-page";

export default function SourceIsmpuploadPage() {
  return <EmptyPage messageKey="source.ismpupload.empty" />;
}
