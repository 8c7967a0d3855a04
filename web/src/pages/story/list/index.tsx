import { Button } from "antd";
import { useTranslation } from "react-i18next";
import { deleteStory, searchStories } from "../../../api/stories";
import { EditCompositeAction, NewCompositeAction } from "../../../components/composite/composite-action";
import { StoryDeleteConfirm } from "../../../components/story-delete-confirm";
import { EditInfoAction } from "../../../components/story-edit/edit-info-dialog";
import { StoryTable } from "../../../components/story-table";

/** /story/list: every story the user can read, with filters; composites are made and edited here too. */
export default function StoryListPage() {
  const { t } = useTranslation();
  return (
    <StoryTable
      emptyText={t("empty.story.list")}
      headerTitle={t("menu.story.list")}
      list={searchStories}
      toolbar={(reload) => [<NewCompositeAction key="new-composite" onSaved={() => void reload()} />]}
      rowActions={(story, reload) => [
        <EditInfoAction key="edit-info" story={story} link onSaved={() => void reload()} />,
        <EditCompositeAction key="edit-composite" story={story} link />,
        <StoryDeleteConfirm
          key="delete"
          onConfirm={async () => {
            await deleteStory(story);
            await reload();
          }}
        >
          <Button type="link" size="small" danger>
            {t("crud.delete")}
          </Button>
        </StoryDeleteConfirm>,
      ]}
    />
  );
}
