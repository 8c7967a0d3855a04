import { useQuery } from "@tanstack/react-query";
import { Alert, Button, Checkbox, Empty, List, Skeleton, Space, Tag, Timeline, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import {
  downloadUrl,
  fetchRelations,
  fetchStoryActions,
  fetchVersions,
  type Story,
  type StoryVersion,
  saveAttachment,
} from "../../api/stories";
import { Access } from "../../auth/access-component";
import { STORY_ACCESS } from "../story-actions";
import { formatSize } from "./format";
import { VersionCompare } from "./version-compare";

/** The versions of a story, newest first: open one in the viewer, download its original, or compare two. */
export function StoryVersions({
  story,
  openVersion,
  onOpen,
}: {
  story: Story;
  openVersion: number | null;
  onOpen: (version: StoryVersion | null) => void;
}) {
  const { t, i18n } = useTranslation();
  const versions = useQuery({
    queryKey: ["stories", "versions", story.libraryId, story.storyId, story.versionNo],
    queryFn: () => fetchVersions(story.libraryId, story.storyId),
  });
  // Version numbers ticked for comparison, the last two ticked kept.
  const [ticked, setTicked] = useState<number[]>([]);
  const [comparing, setComparing] = useState<[StoryVersion, StoryVersion] | null>(null);
  if (versions.isLoading) return <Skeleton active />;
  if (versions.isError) return <Alert type="error" message={t("stories.viewer.loadFailed")} />;
  const all = versions.data ?? [];
  const tick = (versionNo: number, on: boolean) =>
    setTicked((current) =>
      on
        ? [...current.filter((no) => no !== versionNo), versionNo].slice(-2)
        : current.filter((no) => no !== versionNo),
    );
  const openComparison = () => {
    const chosen = all.filter((version) => ticked.includes(version.versionNo));
    if (chosen.length === 2) setComparing([chosen[0]!, chosen[1]!]);
  };
  return (
    <>
      {all.length > 1 ? (
        <Space style={{ marginBottom: 8 }}>
          <Button data-testid="compare-versions" disabled={ticked.length !== 2} onClick={openComparison}>
            {t("viewerMedia.compare.open")}
          </Button>
          <Typography.Text type="secondary">{t("viewerMedia.compare.hint")}</Typography.Text>
        </Space>
      ) : null}
      <VersionCompare story={story} versions={comparing} onClose={() => setComparing(null)} />
      <List
        data-testid="story-versions"
        dataSource={[...all].reverse()}
        locale={{ emptyText: <Empty description={t("stories.viewer.noVersions")} /> }}
        renderItem={(version) => (
          <List.Item
            data-version={version.versionNo}
            actions={[
              ...(all.length > 1
                ? [
                    <Checkbox
                      key="compare"
                      checked={ticked.includes(version.versionNo)}
                      onChange={(event) => tick(version.versionNo, event.target.checked)}
                      data-testid={`compare-tick-${version.versionNo}`}
                    >
                      {t("viewerMedia.compare.select")}
                    </Checkbox>,
                  ]
                : []),
              <Button
                key="open"
                size="small"
                type={openVersion === version.versionNo ? "primary" : "default"}
                onClick={() => onOpen(version.current ? null : version)}
              >
                {t("stories.viewer.openVersion")}
              </Button>,
              <Access key="download" action={STORY_ACCESS.download}>
                <Button
                  size="small"
                  onClick={() =>
                    void saveAttachment(
                      downloadUrl(story.libraryId, [story.storyId], { versionNo: version.versionNo }),
                      version.originalName ?? "story",
                    ).catch(() => undefined)
                  }
                >
                  {t("stories.download")}
                </Button>
              </Access>,
            ]}
          >
            <List.Item.Meta
              title={
                <Space>
                  {t("stories.viewer.versionNo", { no: version.versionNo })}
                  {version.current ? <Tag color="blue">{t("stories.viewer.current")}</Tag> : null}
                </Space>
              }
              description={[
                version.originalName,
                version.size != null ? formatSize(version.size) : null,
                new Date(version.createdAt).toLocaleString(i18n.language),
                version.note,
              ]
                .filter(Boolean)
                .join(" · ")}
            />
          </List.Item>
        )}
      />
    </>
  );
}

/** The story's relations, from both ends. */
export function StoryRelations({ story, onOpen }: { story: Story; onOpen: (related: Story) => void }) {
  const { t } = useTranslation();
  const relations = useQuery({
    queryKey: ["stories", "relations", story.libraryId, story.storyId],
    queryFn: () => fetchRelations(story.libraryId, story.storyId),
  });
  if (relations.isLoading) return <Skeleton active />;
  if (relations.isError) return <Alert type="error" message={t("stories.viewer.loadFailed")} />;
  return (
    <List
      dataSource={relations.data ?? []}
      locale={{ emptyText: <Empty description={t("stories.viewer.noRelations")} /> }}
      renderItem={(relation) => (
        <List.Item>
          <Space>
            <Tag>{t(`stories.relation.${relation.direction}`)}</Tag>
            <Tag color="geekblue">{relation.type}</Tag>
            <Typography.Link onClick={() => onOpen(relation.story)}>
              {relation.story.title || relation.story.originalName || relation.story.storyId}
            </Typography.Link>
          </Space>
        </List.Item>
      )}
    />
  );
}

/** The story's action history (`/story-actions`), newest first. */
export function StoryHistory({ story }: { story: Story }) {
  const { t, i18n } = useTranslation();
  const actions = useQuery({
    queryKey: ["stories", "actions", story.libraryId, story.storyId],
    queryFn: () => fetchStoryActions(story.libraryId, story.storyId),
  });
  if (actions.isLoading) return <Skeleton active />;
  if (actions.isError) return <Alert type="error" message={t("stories.viewer.loadFailed")} />;
  const items = actions.data?.content ?? [];
  if (items.length === 0) return <Empty description={t("stories.viewer.noHistory")} />;
  return (
    <Timeline
      data-testid="story-history"
      items={items.map((action) => ({
        key: action.id,
        children: (
          <>
            <Typography.Text strong>
              {t(`stories.action.${action.action}`, { defaultValue: action.action })}
            </Typography.Text>{" "}
            <Typography.Text type="secondary">
              {action.username ?? t("stories.viewer.system")} · {new Date(action.at).toLocaleString(i18n.language)}
              {action.ip ? ` · ${action.ip}` : ""}
            </Typography.Text>
          </>
        ),
      }))}
    />
  );
}
