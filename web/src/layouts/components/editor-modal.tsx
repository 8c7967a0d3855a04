import { VideoEditDialog } from "../../components/video-editor/video-edit-dialog";

/** The header's video production / image-to-video dialog: the video edit dialog on a new edit. */
export function EditorModal({
  title,
  kind,
  open,
  onClose,
}: {
  title: string;
  kind: "video" | "slideshow";
  open: boolean;
  onClose: () => void;
}) {
  return <VideoEditDialog open={open} kind={kind} title={title} onClose={onClose} />;
}
