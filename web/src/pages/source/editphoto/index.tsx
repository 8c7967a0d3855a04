import { EmptyPage } from "../../../components/empty-page";

export default function SourceEditphotoPage() {
  return <EmptyPage messageKey="source.editphoto.empty" />;
}
