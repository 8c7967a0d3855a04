import { Uploader } from "../../../components/uploader/uploader";

export default function UploadAudioPage() {
  return <Uploader type="audio" />;
}
