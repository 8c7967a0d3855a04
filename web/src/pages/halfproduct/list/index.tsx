import { PlusOutlined } from "@ant-design/icons";
import { Button, Popconfirm } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { finishHalfProduct, searchStories, type UploadType } from "../../../api/stories";
import { commitStories } from "../../../api/uploads";
import { Access } from "../../../auth/access-component";
import { useFeedback } from "../../../components/feedback";
import { STORY_ACCESS } from "../../../components/story-actions";
import { StoryTable } from "../../../components/story-table";
import { CreateHalfProductDialog } from "./create-dialog";

/**
 * /halfproduct/list: half products (work in progress, shown to everyone who
 * reads their library, drafts included). 新建半成品 makes one from a title; a
 * story is marked as one from a grid selection. A draft is committed (its
 * media processed) and stays a half product; 完成 ends the work: a draft is
 * committed as it stops being a half product, a committed one just stops.
 */
export default function HalfproductListPage() {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const [creating, setCreating] = useState<null | (() => Promise<void>)>(null);
  return (
    <>
      <StoryTable
        emptyText={t("empty.halfproduct.list")}
        headerTitle={t("menu.halfproduct.list")}
        list={(query) => searchStories({ ...query, halfProduct: "true" })}
        toolbar={(reload) => [
          <Access key="create" action={STORY_ACCESS.commit}>
            <Button
              type="primary"
              icon={<PlusOutlined />}
              data-testid="halfproduct-create"
              onClick={() => setCreating(() => reload)}
            >
              {t("halfproduct.create")}
            </Button>
          </Access>,
        ]}
        rowActions={(story, reload) => [
          story.status === "draft" && story.type !== "composite" ? (
            <Access key="commit" action={STORY_ACCESS.commit}>
              <Button
                type="link"
                size="small"
                onClick={async () => {
                  await commitStories(story.type as UploadType, story.libraryId, [story.storyId]);
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
                if (story.status === "draft" && story.type !== "composite") {
                  await commitStories(story.type as UploadType, story.libraryId, [story.storyId], {
                    metadata: { halfProduct: false },
                  });
                } else {
                  await finishHalfProduct(story);
                }
                message.success(t("halfproduct.finished"));
                await reload();
              }}
            >
              <Button type="link" size="small" data-testid="halfproduct-finish">
                {t("halfproduct.finish")}
              </Button>
            </Popconfirm>
          </Access>,
        ]}
      />
      {creating ? (
        <CreateHalfProductDialog
          onClose={() => setCreating(null)}
          onCreated={() => {
            message.success(t("halfproduct.created"));
            void creating();
          }}
        />
      ) : null}
    </>
  );
}
