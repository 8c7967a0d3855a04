import { ImageEditPage } from "../editimg/image-edit-page";

/** The photo editor's route: `?library=&story=` edits a story and saves a new version of it. */
export default function SourceEditphotoPage() {
  return <ImageEditPage />;
}
