import {
  DeleteOutlined,
  DownloadOutlined,
  SendOutlined,
  ShareAltOutlined,
  StarFilled,
  StarOutlined,
} from "@ant-design/icons";
import { partialMatchKey, useMutation, useQueryClient } from "@tanstack/react-query";
import { Alert, Button, Drawer, Dropdown, Result, Skeleton, Space, Tabs, Tag } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError } from "../../api/http";
import { savePresetRenditions, useUsablePresets } from "../../api/presets";
import { statisticsKeys } from "../../api/statistics";
import {
  addFavorite,
  deleteStory,
  removeFavorite,
  type Story,
  type StoryRef,
  saveStories,
  storyKeys,
} from "../../api/stories";
import { type StoryVersion, useIsFavorite, useStory } from "../../api/story-detail";
import { Access } from "../../auth/access-component";
import { EditCompositeAction } from "../composite/composite-action";
import { CoverAction } from "../cover-cropper/cover-modal";
import { useFeedback } from "../feedback";
import { StoryImageEditAction } from "../image-editor/story-edit-action";
import { LazyPart, lazyChunk } from "../lazy-part";
import { STORY_ACCESS } from "../story-actions";
import { StoryDeleteConfirm } from "../story-delete-confirm";
import { EditInfoAction } from "../story-edit/edit-info-dialog";
import { StoryVideoEditAction } from "../video-editor/story-video-edit-action";
import { StoryHistory, StoryVersions } from "./story-history";
import { StoryManuscript } from "./story-manuscript";
import { StoryMetadata } from "./story-metadata";
import { StoryPlayer } from "./story-player";
import { StoryProcessingProgress } from "./story-processing";
import { StoryRelations } from "./story-relations";
import { WithdrawAction } from "./withdraw-action";

// The share dialog (a form, the list of my shares) loads when a share is asked for.
const PublishDialog = lazyChunk("publish-dialog", () => import("./publish-dialog").then((m) => m.PublishDialog));
const ShareDialog = lazyChunk("share-dialog", () => import("../share-dialog").then((m) => m.ShareDialog));
// The 发布记录 tab (with the publish monitor's strings) loads when it is opened.
const StoryPublications = lazyChunk("story-publications", () =>
  import("./story-publications").then((m) => m.StoryPublications),
);

/** While the media job runs, the story is asked for again this often. */
const PROCESSING_POLL_MS = 2000;

/**
 * The story viewer: a drawer over the list, opened by the `story` URL
 * parameter (`?story=<libraryId>/<storyId>`), so a story can be linked to.
 */
export function StoryViewer({
  target,
  onClose,
  onOpen,
}: {
  target: StoryRef | null;
  onClose: () => void;
  onOpen: (ref: StoryRef) => void;
}) {
  const { t } = useTranslation();
  const story = useStory(target, {
    call: { silentStatuses: [404] },
    retry: false,
    poll: (data) =>
      data?.processingState === "queued" || data?.processingState === "running" ? PROCESSING_POLL_MS : false,
  });
  return (
    <Drawer
      open={target !== null}
      onClose={onClose}
      width="min(960px, 100vw)"
      rootClassName="dams-story-viewer"
      destroyOnHidden
      title={
        story.data ? story.data.title || story.data.originalName || t("stories.untitled") : t("stories.viewer.title")
      }
      extra={story.data ? <StoryToolbar story={story.data} onDeleted={onClose} /> : null}
      data-testid="story-viewer"
    >
      {story.isLoading ? <Skeleton active paragraph={{ rows: 10 }} /> : null}
      {story.isError ? (
        <Result
          status={story.error instanceof ApiError && story.error.status === 404 ? "404" : "error"}
          title={
            story.error instanceof ApiError && story.error.status === 404
              ? t("stories.viewer.notFound")
              : t("stories.viewer.loadFailed")
          }
        />
      ) : null}
      {story.data ? <StoryBody story={story.data} onOpen={onOpen} /> : null}
    </Drawer>
  );
}

function StoryBody({ story, onOpen }: { story: Story; onOpen: (ref: StoryRef) => void }) {
  const { t } = useTranslation();
  const [version, setVersion] = useState<StoryVersion | null>(null);
  const files = version ? version.files : story.files;
  return (
    <>
      <StoryProcessingProgress story={story} />
      {version ? (
        <Alert
          type="info"
          style={{ marginBottom: 8 }}
          message={t("stories.viewer.showingVersion", { no: version.versionNo })}
          action={
            <Button size="small" onClick={() => setVersion(null)}>
              {t("stories.viewer.backToCurrent")}
            </Button>
          }
        />
      ) : null}
      {story.type === "composite" && !version ? (
        <StoryManuscript story={story} onOpen={onOpen} />
      ) : (
        <StoryPlayer key={version?.versionNo ?? `current-${story.versionNo}`} story={story} files={files} />
      )}
      <Tabs
        style={{ marginTop: 16 }}
        items={[
          { key: "metadata", label: t("stories.viewer.metadata"), children: <StoryMetadata story={story} /> },
          {
            key: "versions",
            label: t("stories.viewer.versions"),
            children: <StoryVersions story={story} openVersion={version?.versionNo ?? null} onOpen={setVersion} />,
          },
          {
            key: "relations",
            label: t("stories.viewer.relations"),
            children: <StoryRelations story={story} onOpen={(related) => onOpen(related)} />,
          },
          {
            key: "publications",
            label: t("stories.viewer.publications"),
            children: (
              <LazyPart>
                <StoryPublications libraryId={story.libraryId} storyId={story.storyId} />
              </LazyPart>
            ),
          },
          { key: "history", label: t("stories.viewer.history"), children: <StoryHistory story={story} /> },
        ]}
      />
    </>
  );
}

function StoryToolbar({ story, onDeleted }: { story: Story; onDeleted: () => void }) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const queryClient = useQueryClient();
  const ref = { libraryId: story.libraryId, storyId: story.storyId };
  const favorite = useIsFavorite(ref);
  const isFavorite = favorite.isFavorite;
  const presets = useUsablePresets(story.type).data ?? [];
  const toggleFavorite = useMutation({
    mutationFn: () => (isFavorite ? removeFavorite(ref) : addFavorite({ ...ref, type: story.type })),
    onSuccess: () => {
      message.success(isFavorite ? t("stories.unfavorited") : t("stories.favorited"));
      return queryClient.invalidateQueries({ queryKey: storyKeys.all });
    },
  });
  const remove = useMutation({
    mutationFn: () => deleteStory(ref),
    onSuccess: async () => {
      message.success(t("crud.deleted"));
      onDeleted();
      // The deleted story's own queries would only answer 404 now, so they are neither fetched again nor
      // removed: removing a query the still-open viewer observes makes its next render fetch it anew (the
      // drawer closes after this render).
      const thisStory = storyKeys.detail(ref);
      await queryClient.cancelQueries({ queryKey: thisStory });
      await queryClient.invalidateQueries({
        queryKey: storyKeys.all,
        predicate: (query) => !partialMatchKey(query.queryKey, thisStory),
      });
      await queryClient.invalidateQueries({ queryKey: statisticsKeys.all });
    },
  });
  const [sharing, setSharing] = useState(false);
  const [publishing, setPublishing] = useState(false);
  const renditions = [
    "original",
    ...story.files.map((file) => file.role).filter((role) => role !== "original" && role !== "strip-index"),
  ];
  const presetPrefix = "preset:";
  const downloadWithPreset = (presetId: string) => {
    const hide = message.loading(t("presets.download.preparing"), 0);
    savePresetRenditions(presetId, story.libraryId, [story.storyId], { fallbackName: story.originalName ?? "story" })
      .catch(() => message.error(t("presets.download.failed")))
      .finally(hide);
  };
  const download = (rendition: string) =>
    rendition.startsWith(presetPrefix)
      ? downloadWithPreset(rendition.slice(presetPrefix.length))
      : void saveStories(
          story.libraryId,
          [story.storyId],
          story.originalName ?? "story",
          rendition === "original" ? {} : { rendition },
        ).catch(() => undefined);
  return (
    <>
      {publishing ? (
        <LazyPart>
          <PublishDialog libraryId={story.libraryId} storyId={story.storyId} onClose={() => setPublishing(false)} />
        </LazyPart>
      ) : null}
      {sharing ? (
        <LazyPart>
          <ShareDialog
            target={{ kind: "story", libraryId: story.libraryId, storyId: story.storyId }}
            defaultTitle={story.title || story.originalName || ""}
            onClose={() => setSharing(false)}
          />
        </LazyPart>
      ) : null}
      <Space wrap>
        {story.status !== "draft" ? null : <Tag>{t("stories.status.draft")}</Tag>}
        <Button
          data-testid="favorite-toggle"
          icon={isFavorite ? <StarFilled style={{ color: "#faad14" }} /> : <StarOutlined />}
          loading={toggleFavorite.isPending || favorite.isLoading}
          onClick={() => toggleFavorite.mutate()}
        >
          {isFavorite ? t("stories.unfavorite") : t("stories.favorite")}
        </Button>
        <Access action={STORY_ACCESS.download}>
          <Dropdown.Button
            icon={<DownloadOutlined />}
            onClick={() => download("original")}
            menu={{
              items: [
                ...renditions.map((role) => ({
                  key: role,
                  label: t(`stories.rendition.${role}`, { defaultValue: role }),
                })),
                ...(presets.length > 0 ? [{ type: "divider" as const }] : []),
                ...presets.map((preset) => ({ key: `${presetPrefix}${preset.id}`, label: preset.name })),
              ],
              onClick: ({ key }) => download(key),
            }}
          >
            {t("stories.download")}
          </Dropdown.Button>
        </Access>
        <EditInfoAction story={story} />
        <EditCompositeAction story={story} />
        <Access action={STORY_ACCESS.edit}>
          <CoverAction story={story} />
        </Access>
        <StoryImageEditAction story={story} />
        <StoryVideoEditAction story={story} />
        <Access action={STORY_ACCESS.share}>
          <Button icon={<ShareAltOutlined />} onClick={() => setSharing(true)} data-testid="story-share">
            {t("stories.share")}
          </Button>
        </Access>
        {story.status !== "draft" ? (
          <Access action={STORY_ACCESS.publish}>
            <Button icon={<SendOutlined />} onClick={() => setPublishing(true)} data-testid="story-publish">
              {t("stories.publish")}
            </Button>
          </Access>
        ) : null}
        {story.status === "published" ? (
          <Access action={STORY_ACCESS.publish}>
            <WithdrawAction story={story} />
          </Access>
        ) : null}
        <StoryDeleteConfirm onConfirm={() => remove.mutate()}>
          <Button danger icon={<DeleteOutlined />} loading={remove.isPending} aria-label={t("stories.delete")} />
        </StoryDeleteConfirm>
      </Space>
    </>
  );
}
