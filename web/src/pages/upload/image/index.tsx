import { EmptyPage } from "../../../components/empty-page";

export default function UploadImagePage() {
  return <EmptyPage messageKey="empty.upload.image" />;
}
