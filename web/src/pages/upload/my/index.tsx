import { EmptyPage } from "../../../components/empty-page";

export default function UploadMyPage() {
  return <EmptyPage messageKey="empty.upload.my" />;
}
