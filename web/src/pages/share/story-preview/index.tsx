import { EmptyPage } from "../../../components/empty-page";

export default function StoryPreviewPage() {
  return <EmptyPage messageKey="share.storyPreview.empty" />;
}
