import { Badge, Checkbox, Typography } from "antd";
import { useTranslation } from "react-i18next";
import type { FacetKey, Facets } from "../../../../api/stories";
import { facetGroups, type StorySearchState } from "../../../../components/story-search-state";

/**
 * The facet panel of the search page. Shows nothing when the server sends no
 * facets (the list route without the search index).
 */
export function StoryFacets({
  facets,
  state,
  onToggle,
  libraryName,
}: {
  facets: Facets | undefined;
  state: StorySearchState;
  onToggle: (key: FacetKey, value: string) => void;
  libraryName?: (id: string) => string;
}) {
  const { t } = useTranslation();
  const groups = facetGroups(facets, state);
  if (groups.length === 0) return null;
  const label = (key: FacetKey, value: string) =>
    key === "type" ? t(`stories.type.${value}`) : key === "library" && libraryName ? libraryName(value) : value;
  return (
    <aside data-testid="story-facets" aria-label={t("stories.facets")}>
      {groups.map((group) => (
        <section key={group.key} style={{ marginBottom: 16 }}>
          <Typography.Text strong>{t(`stories.facet.${group.key}`)}</Typography.Text>
          {group.values.map((item) => (
            <div key={item.value} style={{ display: "flex", justifyContent: "space-between", alignItems: "center" }}>
              <Checkbox checked={item.selected} onChange={() => onToggle(group.key, item.value)}>
                <Typography.Text ellipsis style={{ maxWidth: 150 }}>
                  {label(group.key, item.value)}
                </Typography.Text>
              </Checkbox>
              <Badge count={item.count} overflowCount={99_999} color="#d9d9d9" style={{ color: "#595959" }} showZero />
            </div>
          ))}
        </section>
      ))}
    </aside>
  );
}
