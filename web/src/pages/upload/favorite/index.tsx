import { useTranslation } from "react-i18next";
import { fetchFavorites, storyKeys } from "../../../api/stories";
import { StoryBrowser, StoryTypeFilter, useStorySearchState } from "../../../components/story-browser";

/** /upload/favorite: the user's favourites, as a grid with the viewer. */
export default function UploadFavoritePage() {
  const { t } = useTranslation();
  const [state] = useStorySearchState();
  // The favourites route filters by one type.
  const type = state.types.length === 1 ? state.types[0] : undefined;
  return (
    <StoryBrowser
      queryKey={storyKeys.list("favorites", type ?? "all")}
      fetchPage={async (page, size) => {
        const favorites = await fetchFavorites({ type, page, size });
        return { ...favorites, content: favorites.content.map((favorite) => favorite.story) };
      }}
      header={<StoryTypeFilter />}
      emptyText={t("empty.upload.favorite")}
    />
  );
}
