import { Input } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { libraryName, useLibraries } from "../../../api/libraries";
import { searchStories, storyKeys } from "../../../api/stories";
import { StoryBrowser, StoryTypeFilter, useStorySearchState } from "../../../components/story-browser";
import { facetGroups, toggleFacet, toStoryQuery } from "../../../components/story-search-state";
import { StoryFacets } from "./components/story-facets";

/** Full-text search; the query lives in the `fulltext` parameter (spec section 2), driven by the header's box too. */
export default function SearchPage() {
  const { t } = useTranslation();
  const [state, setState] = useStorySearchState();
  const [value, setValue] = useState(state.fulltext);
  useEffect(() => setValue(state.fulltext), [state.fulltext]);
  const libraries = useLibraries();
  const query = toStoryQuery(state);
  return (
    <StoryBrowser
      queryKey={storyKeys.list("search", query)}
      fetchPage={(page, size) => searchStories({ ...query, page, size, ...(page > 0 ? { facets: "false" } : {}) })}
      batchSearch={query}
      emptyText={state.fulltext ? t("search.emptyFor", { fulltext: state.fulltext }) : t("search.empty")}
      header={
        <>
          <Input.Search
            aria-label={t("search.placeholder")}
            placeholder={t("search.placeholder")}
            value={value}
            onChange={(event) => setValue(event.target.value)}
            onSearch={(text) => setState({ ...state, fulltext: text.trim(), story: null })}
            enterButton
            allowClear
            style={{ width: "min(480px, calc(100vw - 64px))" }}
          />
          <StoryTypeFilter />
        </>
      }
      side={(facets) =>
        facetGroups(facets, state).length === 0 ? null : (
          <StoryFacets
            facets={facets}
            state={state}
            libraryName={(id) => libraryName(libraries.data, id)}
            onToggle={(key, facetValue) => setState(toggleFacet(state, key, facetValue))}
          />
        )
      }
    />
  );
}
