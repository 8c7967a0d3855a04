import { EmptyPage } from "../../../components/empty-page";

export default function UploadDownloadPage() {
  return <EmptyPage messageKey="empty.upload.download" />;
}
