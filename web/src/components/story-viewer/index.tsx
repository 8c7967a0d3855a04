import {
  DeleteOutlined,
  DownloadOutlined,
  SendOutlined,
  ShareAltOutlined,
  StarFilled,
  StarOutlined,
} from "@ant-design/icons";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  Alert,
  Button,
  Drawer,
  Dropdown,
  Modal,
  Popconfirm,
  Result,
  Skeleton,
  Space,
  Tabs,
  Tag,
  Typography,
} from "antd";
import dayjs from "dayjs";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError } from "../../api/http";
import {
  addFavorite,
  deleteStory,
  downloadUrl,
  fetchFavorites,
  fetchStory,
  publishStory,
  removeFavorite,
  type Story,
  type StoryRef,
  type StoryVersion,
  saveAttachment,
  shareStory,
} from "../../api/stories";
import { Access } from "../../auth/access-component";
import { CoverAction } from "../cover-cropper/cover-modal";
import { useFeedback } from "../feedback";
import { StoryImageEditAction } from "../image-editor/story-edit-action";
import { STORY_ACCESS } from "../story-actions";
import { StoryHistory, StoryRelations, StoryVersions } from "./story-history";
import { StoryMetadata } from "./story-metadata";
import { StoryPlayer } from "./story-player";
import { StoryProcessingProgress } from "./story-processing";

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
  const story = useQuery({
    queryKey: ["stories", "one", target?.libraryId, target?.storyId],
    queryFn: () => fetchStory(target!.libraryId, target!.storyId, { silentStatuses: [404] }),
    enabled: target !== null,
    retry: false,
    refetchInterval: (query) => {
      const state = query.state.data?.processingState;
      return state === "queued" || state === "running" ? PROCESSING_POLL_MS : false;
    },
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
      <StoryPlayer key={version?.versionNo ?? `current-${story.versionNo}`} story={story} files={files} />
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
          { key: "history", label: t("stories.viewer.history"), children: <StoryHistory story={story} /> },
        ]}
      />
    </>
  );
}

function StoryToolbar({ story, onDeleted }: { story: Story; onDeleted: () => void }) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const [modal, modalHolder] = Modal.useModal();
  const queryClient = useQueryClient();
  const ref = { libraryId: story.libraryId, storyId: story.storyId };
  const favorite = useQuery({
    queryKey: ["stories", "favorite", story.libraryId, story.storyId],
    queryFn: () => fetchFavorites({ ...ref, page: 0, size: 1 }),
  });
  const isFavorite = (favorite.data?.totalElements ?? 0) > 0;
  const toggleFavorite = useMutation({
    mutationFn: () => (isFavorite ? removeFavorite(ref) : addFavorite({ ...ref, type: story.type })),
    onSuccess: () => {
      message.success(isFavorite ? t("stories.unfavorited") : t("stories.favorited"));
      return queryClient.invalidateQueries({ queryKey: ["stories"] });
    },
  });
  const publish = useMutation({
    mutationFn: () => publishStory(ref),
    onSuccess: () => {
      message.success(t("stories.published"));
      return queryClient.invalidateQueries({ queryKey: ["stories"] });
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
      const ofThisStory = (query: { queryKey: readonly unknown[] }) => query.queryKey.includes(story.storyId);
      await queryClient.cancelQueries({ queryKey: ["stories"], predicate: ofThisStory });
      await queryClient.invalidateQueries({ queryKey: ["stories"], predicate: (query) => !ofThisStory(query) });
      await queryClient.invalidateQueries({ queryKey: ["statistics"] });
    },
  });
  const share = useMutation({
    mutationFn: () => shareStory(ref),
    onSuccess: (token) => {
      const url = new URL(token.url, window.location.origin).toString();
      modal.info({
        title: t("stories.shareTitle"),
        content: (
          <>
            <Typography.Paragraph
              copyable={{ text: url, tooltips: [t("stories.copy"), t("stories.copied")] }}
              style={{ wordBreak: "break-all" }}
            >
              {url}
            </Typography.Paragraph>
            <Typography.Text type="secondary">
              {t("stories.shareExpires", { date: dayjs(token.expiresAt).format("YYYY-MM-DD HH:mm") })}
            </Typography.Text>
          </>
        ),
      });
    },
  });
  const renditions = [
    "original",
    ...story.files.map((file) => file.role).filter((role) => role !== "original" && role !== "strip-index"),
  ];
  const download = (rendition: string) =>
    void saveAttachment(
      downloadUrl(story.libraryId, [story.storyId], rendition === "original" ? {} : { rendition }),
      story.originalName ?? "story",
    ).catch(() => undefined);
  return (
    <>
      {modalHolder}
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
              items: renditions.map((role) => ({
                key: role,
                label: t(`stories.rendition.${role}`, { defaultValue: role }),
              })),
              onClick: ({ key }) => download(key),
            }}
          >
            {t("stories.download")}
          </Dropdown.Button>
        </Access>
        <Access action={STORY_ACCESS.edit}>
          <CoverAction story={story} />
        </Access>
        <StoryImageEditAction story={story} />
        <Access action={STORY_ACCESS.share}>
          <Button icon={<ShareAltOutlined />} loading={share.isPending} onClick={() => share.mutate()}>
            {t("stories.share")}
          </Button>
        </Access>
        {story.status === "committed" ? (
          <Access action={STORY_ACCESS.publish}>
            <Popconfirm
              title={t("stories.publishConfirm")}
              okText={t("crud.ok")}
              cancelText={t("crud.cancel")}
              onConfirm={() => publish.mutate()}
            >
              <Button icon={<SendOutlined />} loading={publish.isPending}>
                {t("stories.publish")}
              </Button>
            </Popconfirm>
          </Access>
        ) : null}
        <Access action={STORY_ACCESS.delete}>
          <Popconfirm
            title={t("crud.deleteConfirm")}
            okText={t("crud.ok")}
            cancelText={t("crud.cancel")}
            onConfirm={() => remove.mutate()}
          >
            <Button danger icon={<DeleteOutlined />} loading={remove.isPending} aria-label={t("stories.delete")} />
          </Popconfirm>
        </Access>
      </Space>
    </>
  );
}
