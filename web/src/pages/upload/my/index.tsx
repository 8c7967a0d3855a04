import { useTranslation } from "react-i18next";
import { fetchMyStories, storyKeys } from "../../../api/stories";
import { StoryBrowser, StoryTypeFilter, useStorySearchState } from "../../../components/story-browser";

/** /upload/my: the stories the user created, drafts included. */
export default function UploadMyPage() {
  const { t } = useTranslation();
  const [state] = useStorySearchState();
  return (
    <StoryBrowser
      queryKey={storyKeys.list("mine", state.types)}
      fetchPage={(page, size) => fetchMyStories(undefined, { types: state.types, page, size })}
      header={<StoryTypeFilter />}
      emptyText={t("empty.upload.my")}
    />
  );
}
