import { EmptyPage } from "../../../components/empty-page";

export default function UploadVideoPage() {
  return <EmptyPage messageKey="empty.upload.video" />;
}
