import { EmptyPage } from "../../../../components/empty-page";

export default function ManageSettingStoryPropertiesPage() {
  return <EmptyPage messageKey="empty.manage.setting.storyProperties" />;
}
