import { Alert, Skeleton } from "antd";
import { useTranslation } from "react-i18next";
import { useCompositeText } from "../../api/composites";
import type { Story, StoryRef } from "../../api/stories";
import { ManuscriptView, MemberTile } from "../manuscript";

/** A composite in the viewer: its cover, then the manuscript — its text with its members, each opening on click. */
export function StoryManuscript({ story, onOpen }: { story: Story; onOpen: (ref: StoryRef) => void }) {
  const { t } = useTranslation();
  const text = useCompositeText(story);
  return (
    <article data-testid="story-manuscript">
      {story.coverMediaUrl ? (
        <img
          src={story.coverMediaUrl}
          alt={story.title}
          data-testid="story-manuscript-cover"
          style={{ width: "100%", maxHeight: 360, objectFit: "cover", borderRadius: 8, display: "block" }}
        />
      ) : null}
      {story.caption ? <p style={{ fontSize: 16, color: "#595959", margin: "12px 0" }}>{story.caption}</p> : null}
      {text.isLoading ? <Skeleton active paragraph={{ rows: 6 }} /> : null}
      {text.isError ? <Alert type="error" message={t("composite.loadFailed")} /> : null}
      {text.data ? (
        <ManuscriptView
          parts={text.data.parts}
          members={text.data.members}
          unplacedTitle={t("composite.unplaced")}
          renderMember={(member) => (
            <MemberTile
              member={member}
              onOpen={() => onOpen({ libraryId: member.libraryId, storyId: member.storyId })}
            />
          )}
        />
      ) : null}
    </article>
  );
}
