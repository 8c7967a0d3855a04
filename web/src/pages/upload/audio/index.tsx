import { EmptyPage } from "../../../components/empty-page";

export default function UploadAudioPage() {
  return <EmptyPage messageKey="empty.upload.audio" />;
}
