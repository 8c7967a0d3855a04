import { EmptyPage } from "../../../components/empty-page";

export default function StoryListPage() {
  return <EmptyPage messageKey="empty.story.list" />;
}
