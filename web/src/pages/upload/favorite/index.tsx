import { EmptyPage } from "../../../components/empty-page";

export default function UploadFavoritePage() {
  return <EmptyPage messageKey="empty.upload.favorite" />;
}
