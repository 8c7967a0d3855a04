import {
  AppstoreAddOutlined,
  DeleteOutlined,
  DownloadOutlined,
  EditOutlined,
  ExperimentOutlined,
  FolderOutlined,
  SendOutlined,
  ShareAltOutlined,
  StarOutlined,
} from "@ant-design/icons";
import { useQueryClient } from "@tanstack/react-query";
import { Button, Dropdown, Space, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { memberOf } from "../api/composites";
import { savePresetRenditions, useUsablePresets } from "../api/presets";
import { statisticsKeys } from "../api/statistics";
import {
  addFavorite,
  deleteStory,
  markHalfProduct,
  moveStory,
  type Story,
  saveStories,
  storyKeys,
  ZIP_MAX_STORIES,
} from "../api/stories";
import { Access } from "../auth/access-component";
import { useFeedback } from "./feedback";
import { LazyPart, lazyChunk } from "./lazy-part";
import { STORY_ACCESS, zipBatches } from "./story-actions";
import { StoryDeleteConfirm } from "./story-delete-confirm";
import type { BatchSearchTarget } from "./story-edit/batch-edit-dialog";

// The folder picker (TreeSelect) loads when a move is asked for.
const MoveDialog = lazyChunk("story-move-dialog", () => import("./story-move-dialog").then((m) => m.MoveDialog));
const BatchEditDialog = lazyChunk("batch-edit-dialog", () =>
  import("./story-edit/batch-edit-dialog").then((m) => m.BatchEditDialog),
);
const ShareDialog = lazyChunk("share-dialog", () => import("./share-dialog").then((m) => m.ShareDialog));
const CompositeDialog = lazyChunk("composite-dialog", () =>
  import("./composite/composite-dialog").then((m) => m.CompositeDialog),
);
const BatchPublishDialog = lazyChunk("batch-publish-dialog", () =>
  import("./batch-publish-dialog").then((m) => m.BatchPublishDialog),
);

/** Runs an action on each story; returns how many failed (each failure was reported by the API client). */
async function eachStory(stories: readonly Story[], action: (story: Story) => Promise<unknown>): Promise<number> {
  const results = await Promise.allSettled(stories.map(action));
  return results.filter((result) => result.status === "rejected").length;
}

/** The actions on the selected stories, each shown only when the role allows it (spec section 6). */
export function StorySelectionBar({
  stories,
  search,
  onClear,
}: {
  stories: readonly Story[];
  /** The grid's search, offered by 编辑信息 as the other target ("every story matching"). */
  search?: BatchSearchTarget;
  onClear: () => void;
}) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [moving, setMoving] = useState(false);
  const [sharing, setSharing] = useState(false);
  const [editing, setEditing] = useState(false);
  const [publishing, setPublishing] = useState(false);
  const [composing, setComposing] = useState(false);
  // Download presets apply to one story type: offered when the selection has one.
  const commonType = stories.every((story) => story.type === stories[0]?.type) ? stories[0]?.type : undefined;
  const presets = useUsablePresets(commonType).data ?? [];
  if (stories.length === 0) return null;
  const oneLibrary = stories.every((story) => story.libraryId === stories[0]?.libraryId)
    ? stories[0]?.libraryId
    : undefined;

  const run = async (action: () => Promise<number>, success: string) => {
    setBusy(true);
    try {
      const failed = await action();
      if (failed === 0) message.success(success);
      await queryClient.invalidateQueries({ queryKey: storyKeys.all });
      // The header's counts change when stories are deleted.
      await queryClient.invalidateQueries({ queryKey: statisticsKeys.all });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div
      data-testid="selection-bar"
      style={{
        display: "flex",
        alignItems: "center",
        gap: 12,
        padding: "8px 12px",
        background: "#e6f4ff",
        borderRadius: 8,
        marginBottom: 8,
      }}
    >
      <Typography.Text>{t("stories.selected", { count: stories.length })}</Typography.Text>
      <Space wrap>
        <Access action={STORY_ACCESS.download}>
          <Dropdown.Button
            data-testid="selection-download"
            icon={<DownloadOutlined />}
            loading={busy}
            menu={{
              items: presets.map((preset) => ({ key: preset.id, label: preset.name })),
              onClick: ({ key }) =>
                run(async () => {
                  let failed = 0;
                  for (const batch of zipBatches(stories, ZIP_MAX_STORIES)) {
                    await savePresetRenditions(key, batch.libraryId, batch.storyIds, {
                      fallbackName: `${batch.libraryId}.zip`,
                    }).catch(() => failed++);
                  }
                  if (failed > 0) message.error(t("presets.download.failed"));
                  return failed;
                }, t("stories.downloadStarted")),
            }}
            onClick={() =>
              run(async () => {
                let failed = 0;
                for (const batch of zipBatches(stories, ZIP_MAX_STORIES)) {
                  const name =
                    batch.storyIds.length > 1
                      ? `${batch.libraryId}.zip`
                      : (stories.find((s) => s.storyId === batch.storyIds[0])?.originalName ?? "story");
                  await saveStories(batch.libraryId, batch.storyIds, name).catch(() => failed++);
                }
                return failed;
              }, t("stories.downloadStarted"))
            }
          >
            {t("stories.download")}
          </Dropdown.Button>
        </Access>
        <Button
          icon={<StarOutlined />}
          loading={busy}
          onClick={() =>
            run(
              () => eachStory(stories, (story) => addFavorite({ libraryId: story.libraryId, storyId: story.storyId })),
              t("stories.favorited"),
            )
          }
        >
          {t("stories.favorite")}
        </Button>
        <Access action={STORY_ACCESS.share}>
          <Button icon={<ShareAltOutlined />} onClick={() => setSharing(true)} data-testid="selection-share">
            {t("stories.share")}
          </Button>
        </Access>
        <Access action={STORY_ACCESS.edit}>
          <Button icon={<EditOutlined />} onClick={() => setEditing(true)} data-testid="selection-edit-info">
            {t("batchEdit.action")}
          </Button>
        </Access>
        <Access action={STORY_ACCESS.publish}>
          <Button icon={<SendOutlined />} onClick={() => setPublishing(true)} data-testid="selection-publish">
            {t("stories.publish")}
          </Button>
        </Access>
        {stories.some((story) => story.type !== "composite") ? (
          <Access action={STORY_ACCESS.commit}>
            <Button icon={<AppstoreAddOutlined />} onClick={() => setComposing(true)} data-testid="selection-composite">
              {t("composite.create")}
            </Button>
          </Access>
        ) : null}
        {oneLibrary ? (
          <Access action={STORY_ACCESS.edit}>
            <Button icon={<FolderOutlined />} loading={busy} onClick={() => setMoving(true)}>
              {t("stories.move")}
            </Button>
          </Access>
        ) : null}
        {stories.some((story) => !story.halfProduct) ? (
          <Access action={STORY_ACCESS.edit}>
            <Button
              icon={<ExperimentOutlined />}
              loading={busy}
              data-testid="selection-half-product"
              onClick={() =>
                run(
                  () =>
                    eachStory(
                      stories.filter((story) => !story.halfProduct),
                      (story) => markHalfProduct(story, true),
                    ),
                  t("halfproduct.marked"),
                )
              }
            >
              {t("halfproduct.mark")}
            </Button>
          </Access>
        ) : null}
        <StoryDeleteConfirm
          onConfirm={() =>
            run(async () => {
              const failed = await eachStory(stories, (story) => deleteStory(story));
              onClear();
              return failed;
            }, t("crud.deleted"))
          }
        >
          <Button danger icon={<DeleteOutlined />} loading={busy}>
            {t("stories.delete")}
          </Button>
        </StoryDeleteConfirm>
        <Button type="link" onClick={onClear}>
          {t("stories.clearSelection")}
        </Button>
      </Space>
      {editing ? (
        <LazyPart>
          <BatchEditDialog stories={stories} search={search} onClose={() => setEditing(false)} />
        </LazyPart>
      ) : null}
      {composing ? (
        <LazyPart>
          <CompositeDialog
            target={{
              kind: "create",
              libraryId: oneLibrary,
              members: stories.filter((story) => story.type !== "composite").map(memberOf),
            }}
            onClose={() => setComposing(false)}
            onSaved={onClear}
          />
        </LazyPart>
      ) : null}
      {sharing ? (
        <LazyPart>
          <ShareDialog
            target={{
              kind: "stories",
              stories: stories.map((story) => ({ libraryId: story.libraryId, storyId: story.storyId })),
            }}
            onClose={() => setSharing(false)}
          />
        </LazyPart>
      ) : null}
      {publishing ? (
        <LazyPart>
          <BatchPublishDialog
            stories={stories.map((story) => ({
              libraryId: story.libraryId,
              storyId: story.storyId,
              title: story.title,
            }))}
            onClose={() => setPublishing(false)}
          />
        </LazyPart>
      ) : null}
      {oneLibrary && moving ? (
        <LazyPart>
          <MoveDialog
            libraryId={oneLibrary}
            onCancel={() => setMoving(false)}
            onMove={(folderId) => {
              setMoving(false);
              void run(() => eachStory(stories, (story) => moveStory(story, folderId)), t("crud.saved"));
            }}
          />
        </LazyPart>
      ) : null}
    </div>
  );
}
