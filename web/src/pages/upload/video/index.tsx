import { Uploader } from "../../../components/uploader/uploader";

export default function UploadVideoPage() {
  return <Uploader type="video" />;
}
