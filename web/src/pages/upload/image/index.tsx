import { Uploader } from "../../../components/uploader/uploader";

export default function UploadImagePage() {
  return <Uploader type="photo" />;
}
