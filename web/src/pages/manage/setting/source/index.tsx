import { mergeSource, sourceCalls } from "../../../../api/catalogue";
import { SortedEntryPage } from "../catalogue-shared/sorted-entry-page";

export default function ManageSettingSourcePage() {
  return (
    <SortedEntryPage
      permission="manage.setting.source"
      titleKey="catalogue.source.title"
      calls={sourceCalls}
      merge={mergeSource}
    />
  );
}
