import { ImageEditPage } from "./image-edit-page";

/** The image editor's route; the header's image-edit upload hands the chosen file over in the router state. */
export default function SourceEditimgPage() {
  return <ImageEditPage />;
}
