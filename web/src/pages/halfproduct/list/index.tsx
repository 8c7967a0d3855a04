import { Button, Popconfirm } from "antd";
import { useTranslation } from "react-i18next";
import { commitStories, finishHalfProduct, searchStories } from "../../../api/stories";
import { Access } from "../../../auth/access-component";
import { useFeedback } from "../../../components/feedback";
import { STORY_ACCESS } from "../../../components/story-actions";
import { StoryTable } from "../../../components/story-table";

/**
 * /halfproduct/list: half products (work in progress). A draft is committed
 * (its media processed); a half product is finished when it is no longer one.
 */
export default function HalfproductListPage() {
  const { t } = useTranslation();
  const { message } = useFeedback();
  return (
    <StoryTable
      emptyText={t("empty.halfproduct.list")}
      headerTitle={t("menu.halfproduct.list")}
      list={(query) => searchStories({ ...query, halfProduct: true })}
      rowActions={(story, reload) => [
        story.status === "draft" && story.type !== "composite" ? (
          <Access key="commit" action={STORY_ACCESS.commit}>
            <Button
              type="link"
              size="small"
              onClick={async () => {
                await commitStories(story.type as "photo" | "video" | "audio", story.libraryId, [story.storyId]);
                message.success(t("halfproduct.committed"));
                await reload();
              }}
            >
              {t("halfproduct.commit")}
            </Button>
          </Access>
        ) : null,
        <Access key="finish" action={STORY_ACCESS.edit}>
          <Popconfirm
            title={t("halfproduct.finishConfirm")}
            okText={t("crud.ok")}
            cancelText={t("crud.cancel")}
            onConfirm={async () => {
              await finishHalfProduct(story);
              message.success(t("halfproduct.finished"));
              await reload();
            }}
          >
            <Button type="link" size="small">
              {t("halfproduct.finish")}
            </Button>
          </Popconfirm>
        </Access>,
      ]}
    />
  );
}
