import { Alert, Skeleton } from "antd";
import { useTranslation } from "react-i18next";
import { type ManuscriptMember, useCompositeText } from "../../api/composites";
import type { Story, StoryRef } from "../../api/stories";
import { fileOf, useStory } from "../../api/story-detail";
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
          renderMember={(member) => <ViewerMemberTile member={member} onOpen={onOpen} />}
        />
      ) : null}
    </article>
  );
}

/**
 * A member in the viewer's manuscript, shown by its preview (the text's list
 * gives a thumbnail, too small for a page's width) once its detail — which
 * opening it needs anyway — is loaded.
 */
function ViewerMemberTile({ member, onOpen }: { member: ManuscriptMember; onOpen: (ref: StoryRef) => void }) {
  const ref = { libraryId: member.libraryId, storyId: member.storyId };
  const detail = useStory(ref, { call: { silentStatuses: [403, 404] }, retry: false });
  const still = detail.data ? (fileOf(detail.data, "preview") ?? fileOf(detail.data, "poster")) : undefined;
  return (
    <MemberTile
      member={still?.mediaUrl ? { ...member, thumbnailUrl: still.mediaUrl } : member}
      onOpen={() => onOpen(ref)}
    />
  );
}
