import { mergeTheme, themeCalls } from "../../../../api/catalogue";
import { SortedEntryPage } from "../catalogue-shared/sorted-entry-page";

export default function ManageSettingThemePage() {
  return (
    <SortedEntryPage
      permission="manage.setting.theme"
      titleKey="catalogue.theme.title"
      calls={themeCalls}
      merge={mergeTheme}
    />
  );
}
